import Crypto
import Foundation

/// `clientDataJSON` (W3C WebAuthn §5.8.1): what the client says it was asked to sign, and where.
///
/// Read with a JSON parser rather than the prefix match of §5.8.1.2, so members in another order or unknown members
/// are tolerated, as the specification asks. The relying party signs over the hash of the exact bytes it received,
/// which is why the bytes are kept alongside the parsed members.
struct WebAuthnClientData: Sendable {
    /// `webauthn.create` at registration, `webauthn.get` at an assertion.
    let type: String
    /// The challenge bytes (the member is their unpadded base64url).
    let challenge: [UInt8]
    let origin: String
    let crossOrigin: Bool
    /// SHA-256 of the bytes as received, which the attestation and assertion signatures cover.
    let hash: [UInt8]

    /// Parses the decoded bytes of `clientData`/`clientDataJSON`.
    init(bytes: [UInt8]) throws(WebAuthnFailure) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw .clientDataUnreadable
        }
        guard let type = object["type"] as? String else { throw .wrongType(expected: "a type", received: nil) }
        guard let challengeText = object["challenge"] as? String, let challenge = WebAuthnBase64.decode(challengeText) else {
            throw .clientDataUnreadable
        }
        guard let origin = object["origin"] as? String else { throw .originMismatch(expected: "an origin", received: nil) }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = object["crossOrigin"] as? Bool ?? false
        self.hash = Array(SHA256.hash(data: bytes))
    }

    /// W3C §7.1 and §7.2: the type of the ceremony, the challenge issued for it, the origin
    /// the sandbox serves. A cross-origin (iframe) ceremony is refused: idflow never makes one, and Okta's sign-in
    /// page is never embedded by the sandbox.
    func check(type expectedType: String, against ceremony: WebAuthnCeremony) throws(WebAuthnFailure) {
        guard type == expectedType else { throw .wrongType(expected: expectedType, received: type) }
        guard let issued = WebAuthnBase64.decode(ceremony.challenge), issued == challenge else { throw .challengeMismatch }
        guard origin == ceremony.origin else { throw .originMismatch(expected: ceremony.origin, received: origin) }
        guard !crossOrigin else { throw .crossOrigin }
    }
}
