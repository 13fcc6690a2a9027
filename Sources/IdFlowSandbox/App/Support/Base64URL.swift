import Base64URLCoding
import Foundation

extension Data {
    /// Unpadded base64url (RFC 4648 §5), the encoding of JWK members, PKCE challenges and `at_hash`.
    var base64URLEncoded: String { Base64URLCoding.encode(self) }

    /// Decodes base64url, padded or not (standard base64's `+` and `/` read too, as before); nil when it is not.
    init?(base64URLEncoded text: String) {
        guard let bytes = Base64URLCoding.decodeEitherAlphabet(text) else { return nil }
        self.init(bytes)
    }
}
