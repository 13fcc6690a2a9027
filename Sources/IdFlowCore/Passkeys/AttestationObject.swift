import CBOR
import Crypto
import Foundation
import IdFlowFoundation

/// The attestation object posted at enrolment (webauthn.md §6, W3C §6.5.4): `{"fmt", "attStmt", "authData"}` in
/// CTAP2 canonical order.
public enum AttestationObject {
    /// What the authenticator says about itself: nothing (`none`, the default, what platform passkeys answer), or a
    /// `packed` self attestation (W3C §8.2), signed by the credential's own key, for orgs that want a statement.
    public enum Format: String, Sendable, CaseIterable {
        case none
        case packed
    }

    /// The CBOR bytes. `credentialKey` signs a `packed` statement over `authData ‖ clientDataHash`.
    public static func encoded(
        format: Format, authenticatorData: AuthenticatorData, clientDataHash: [UInt8],
        credentialKey: P256.Signing.PrivateKey
    ) throws(IdFlowError) -> [UInt8] {
        let authData = authenticatorData.bytes
        let statement: CBOR
        switch format {
        case .none:
            statement = .map([])
        case .packed:
            let signature = try Signing.der(authData + clientDataHash, with: credentialKey)
            statement = .map([CBORPair(.text("alg"), .int(COSEKey.es256)), CBORPair(.text("sig"), .bytes(signature))])
        }
        return CBOR.map([
            CBORPair(.text("fmt"), .text(format.rawValue)),
            CBORPair(.text("attStmt"), statement),
            CBORPair(.text("authData"), .bytes(authData)),
        ]).encoded()
    }
}

/// ECDSA P-256 with SHA-256, in the DER `Ecdsa-Sig-Value` WebAuthn wants (W3C §6.5.5).
enum Signing {
    static func der(_ message: [UInt8], with key: P256.Signing.PrivateKey) throws(IdFlowError) -> [UInt8] {
        do {
            return Array(try key.signature(for: message).derRepresentation)
        } catch {
            throw .internalFailure("cannot sign with the passkey: \(error)")
        }
    }
}
