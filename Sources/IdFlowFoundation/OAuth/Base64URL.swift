import Base64URLCoding
import Foundation

/// Base64url without padding (RFC 4648 §5), the alphabet of PKCE, JWTs and OAuth random values.
public enum Base64URL {
    public static func encode(_ data: some DataProtocol) -> String {
        Base64URLCoding.encode(data)
    }

    /// Decodes unpadded base64url; nil for any character outside the alphabet (`+`, `/`, `=` included) or an impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        Base64URLCoding.decode(text).map { Data($0) }
    }
}
