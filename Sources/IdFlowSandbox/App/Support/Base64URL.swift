import Base64URLCoding
import Foundation

extension Data {
    /// Unpadded base64url (RFC 4648 §5), the encoding of JWK members, PKCE challenges and `at_hash`.
    var base64URLEncoded: String { Base64URLCoding.encode(self) }
}
