import Foundation

/// Base64url without padding (RFC 4648 §5), the alphabet of PKCE, JWTs and OAuth random values.
public enum Base64URL {
    public static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decodes unpadded base64url; nil for any character outside the alphabet (`+`, `/`, `=` included) or an impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy(alphabet.contains), bytes.count % 4 != 1 else { return nil }
        var base64 = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
