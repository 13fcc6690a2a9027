import Base64URLCoding
import Foundation

/// The binary fields of a WebAuthn answer as clients send them.
///
/// The widget and the Swift SDK post standard padded base64; Kotlin's IDX SDK posts its enrolment fields in base64url;
/// Direct Authentication clients send base64url without padding. Okta takes them all, so the sandbox reads either
/// alphabet, padded or not, for every field (the client sends standard padded base64).
enum WebAuthnBase64 {
    /// The bytes of `text` in standard base64 or base64url, padded or not; nil when it is neither.
    static func decode(_ text: String) -> [UInt8]? {
        Base64URLCoding.decodeEitherAlphabet(text)
    }

    /// Decodes one named field of a request, or says which field was not base64.
    static func decode(_ text: String, field: String) throws(WebAuthnFailure) -> [UInt8] {
        guard let bytes = decode(text) else { throw .notBase64(field: field) }
        return bytes
    }

    /// Unpadded base64url, the form Okta lists a `credentialId` in and a challenge is issued in.
    static func encodeURL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64URLEncoded
    }
}
