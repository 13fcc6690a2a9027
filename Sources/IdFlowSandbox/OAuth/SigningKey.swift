import Crypto
import Foundation
import JWTKit
import _CryptoExtras

/// The RS256 key that signs every token of one sandbox, and its public JWK.
///
/// Generated per server (never at load time, so other idflow commands stay fast); jwt-kit does all
/// signing and verification.
struct SigningKey: Sendable {
    /// The RFC 7638 thumbprint of the public key, base64url: stable for the key and unique per key.
    let kid: String
    /// The public half as served by `/v1/keys`.
    let jwk: OrderedJSON
    let keys: JWTKeyCollection

    /// Makes a fresh 2048-bit key.
    static func generate() async throws -> SigningKey {
        let privateKey = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let (modulus, exponent) = try privateKey.publicKey.getKeyPrimitives()
        let n = modulus.base64URLEncoded
        let e = exponent.base64URLEncoded
        let thumbprintInput = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
        let kid = Data(SHA256.hash(data: Data(thumbprintInput.utf8))).base64URLEncoded
        let keys = JWTKeyCollection()
        await keys.add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        let jwk: OrderedJSON = [
            "kty": "RSA", "alg": "RS256", "kid": .string(kid), "use": "sig", "e": .string(e), "n": .string(n),
        ]
        return SigningKey(kid: kid, jwk: jwk, keys: keys)
    }

    func sign(_ payload: some JWTPayload) async throws -> String {
        try await keys.sign(payload, kid: JWKIdentifier(string: kid))
    }

    /// Signs with an explicit `typ` header (push challenges are `okta-pushbind+jwt`, devices.md §5b).
    func sign(_ payload: some JWTPayload, type: String) async throws -> String {
        try await keys.sign(payload, kid: JWKIdentifier(string: kid), header: ["typ": .string(type)])
    }

    /// Parses a token this key signed, or returns nil (bad signature, not a JWT, other claims).
    func verified<Payload: JWTPayload>(_ token: String, as type: Payload.Type) async -> Payload? {
        try? await keys.verify(token, as: type)
    }

    /// OIDC `at_hash`: base64url of the left half of SHA-256 over the access token's ASCII.
    static func atHash(_ accessToken: String) -> String {
        Data(Data(SHA256.hash(data: Data(accessToken.utf8))).prefix(16)).base64URLEncoded
    }
}
