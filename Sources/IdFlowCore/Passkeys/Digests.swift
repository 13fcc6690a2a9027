import Crypto

/// SHA-256 as byte arrays, the form every WebAuthn structure is assembled in.
enum Digests {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}
