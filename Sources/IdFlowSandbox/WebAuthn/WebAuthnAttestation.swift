import CBOR
import Foundation

/// An `attestationObject` (W3C WebAuthn §6.5.4): `{"fmt": …, "attStmt": {…}, "authData": bytes}` in CBOR.
///
/// The sandbox accepts the two formats a software or platform passkey answers with: `none` (§8.7), and `packed`
/// self attestation (§8.2), signed by the credential's own key. A `packed` statement with a certificate chain
/// (`x5c`) would need the vendor's roots to mean anything, so it is refused as unsupported rather than accepted
/// unchecked; every other format (tpm, android-key, fido-u2f, apple, …) likewise.
struct WebAuthnAttestation: Sendable {
    let format: String
    let statement: CBOR
    let authenticatorData: WebAuthnAuthenticatorData

    init(bytes: [UInt8]) throws(WebAuthnFailure) {
        let object: CBOR
        do {
            object = try CBOR.decode(bytes)
        } catch {
            throw .attestationMalformed("not CBOR: \(error.reason) at byte \(error.offset)")
        }
        guard case .map = object else { throw .attestationMalformed("not a CBOR map") }
        guard let format = object["fmt"]?.textValue else { throw .attestationMalformed("no text `fmt`") }
        guard let statement = object["attStmt"], case .map = statement else { throw .attestationMalformed("no map `attStmt`") }
        guard let authData = object["authData"]?.bytesValue else { throw .attestationMalformed("no byte string `authData`") }
        self.format = format
        self.statement = statement
        self.authenticatorData = try WebAuthnAuthenticatorData(bytes: authData)
    }

    /// W3C §7.1: the statement's verification procedure for its format, given the credential's key and the
    /// hash of `clientDataJSON`.
    func verify(credentialKey: WebAuthnPublicKey, clientDataHash: [UInt8]) throws(WebAuthnFailure) {
        switch format {
        case "none":
            // §8.7: nothing is attested; the statement is empty and there is nothing to check.
            return
        case "packed":
            guard statement["x5c"] == nil else { throw .attestationCertificatesUnsupported }
            let alg = statement["alg"]?.intValue
            guard alg == credentialKey.algorithm else {
                throw .attestationAlgorithmMismatch(expected: credentialKey.algorithm, received: alg)
            }
            guard let signature = statement["sig"]?.bytesValue else { throw .attestationMalformed("packed `attStmt` has no `sig`") }
            guard credentialKey.isValidSignature(signature, for: authenticatorData.bytes + clientDataHash) else {
                throw .attestationSignatureInvalid
            }
        default:
            throw .unsupportedAttestationFormat(format)
        }
    }
}
