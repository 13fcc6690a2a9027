import CBOR
import Foundation

extension FuzzTargets {
    /// The CBOR decoder that reads attestation objects and COSE keys (passkeys). What it accepts must encode back
    /// to the same bytes when the input was canonical, and decode again to the same value in any case: a value that
    /// changes on a round trip would let idflow and the sandbox disagree on what was signed.
    static let cbor = FuzzTarget(
        name: "cbor",
        summary: "CBOR decoder (WebAuthn attestation objects, COSE keys) and its round trip"
    ) { input in
        let bytes = [UInt8](input)
        guard let value = try? CBOR.decode(bytes) else {
            _ = try? CBOR.decodePrefix(bytes[...])
            return
        }
        let again = value.encoded()
        precondition((try? CBOR.decode(again)) == value, "a CBOR value changed on a round trip")
        precondition(again.count <= bytes.count, "a CBOR value grew when written canonically")
        _ = (value[1], value[-1], value["fmt"], value.intValue)
    }
}
