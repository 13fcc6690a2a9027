import Crypto
import Foundation

/// A PKCE code verifier and its S256 challenge (RFC 7636): the verifier stays with us, the challenge
/// goes to /authorize, so a stolen authorization code is useless without the verifier.
public struct PKCEPair: Sendable, Equatable {
    public let verifier: String
    public let challenge: String
    public let method = "S256"

    /// A fresh verifier: 32 bytes from the system CSPRNG, base64url-encoded to 43 characters.
    public static func generate() -> PKCEPair {
        try! PKCEPair(verifier: RandomValue.base64URL(bytes: 32))
    }

    /// Derives the challenge for a given verifier; RFC 7636 allows 43–128 unreserved characters.
    public init(verifier: String) throws(IdFlowError) {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        guard (43...128).contains(verifier.count), verifier.unicodeScalars.allSatisfy(allowed.contains) else {
            throw .invalidInput("a PKCE verifier must be 43 to 128 unreserved characters")
        }
        self.verifier = verifier
        self.challenge = Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}

/// Unguessable values for `state`, `nonce` and verifiers, from the system CSPRNG.
public enum RandomValue {
    public static func base64URL(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// A random id a script passes back as an argument: hex, so it never starts with `-` and is never taken
    /// for an option (`--resume -x…`).
    public static func hex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
