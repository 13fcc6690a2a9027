import Crypto
import CryptoExtras
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import JWTKit

/// Key pairs generated once per test run (RSA generation is slow) and helpers to publish and sign with them.
enum TestKeys {
    static let rsa = makeRSA()
    static let otherRSA = makeRSA()
    static let ec = ES256PrivateKey()

    static func makeRSA() -> JWTKit.Insecure.RSA.PrivateKey {
        // swift-format-ignore: NeverUseForceTry
        try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// The public half of `key` as a JWK object, as an issuer publishes it in `jwks_uri`.
    static func jwk(_ key: JWTKit.Insecure.RSA.PrivateKey, kid: String?, alg: String? = "RS256", use: String? = "sig") throws -> JSONValue {
        let primitives = try key.publicKey.getKeyPrimitives()
        var members: [String: JSONValue] = [
            "kty": "RSA", "e": .string(base64URL(primitives.publicExponent)), "n": .string(base64URL(primitives.modulus)),
        ]
        members["kid"] = kid.map(JSONValue.string)
        members["alg"] = alg.map(JSONValue.string)
        members["use"] = use.map(JSONValue.string)
        return .object(members)
    }

    static func jwk(_ key: ES256PrivateKey, kid: String?, alg: String? = "ES256") -> JSONValue {
        var members: [String: JSONValue] = [
            "kty": "EC", "crv": "P-256", "x": .string(key.parameters!.x), "y": .string(key.parameters!.y), "use": "sig",
        ]
        members["kid"] = kid.map(JSONValue.string)
        members["alg"] = alg.map(JSONValue.string)
        return .object(members)
    }

    /// A JWKS document holding `keys`.
    static func jwks(_ keys: JSONValue...) throws -> String {
        String(decoding: try JSONEncoder().encode(JSONValue.object(["keys": .array(keys)])), as: UTF8.self)
    }

    /// `claims` signed by jwt-kit with `key` as `alg` (RS* or PS*), `kid` in the header when given.
    static func sign(_ claims: JSONValue, with key: JWTKit.Insecure.RSA.PrivateKey, kid: String?, alg: String = "RS256") async throws
        -> String
    {
        let collection = JWTKeyCollection()
        let digest: DigestAlgorithm = alg.hasSuffix("384") ? .sha384 : alg.hasSuffix("512") ? .sha512 : .sha256
        if alg.hasPrefix("PS") {
            await collection.add(pss: key, digestAlgorithm: digest, kid: kid.map { JWKIdentifier(string: $0) })
        } else {
            await collection.add(rsa: key, digestAlgorithm: digest, kid: kid.map { JWKIdentifier(string: $0) })
        }
        var header = JWTHeader()
        header.kid = kid
        return try await collection.sign(AnyClaims(claims), kid: kid.map { JWKIdentifier(string: $0) }, header: header)
    }

    static func sign(_ claims: JSONValue, with key: ES256PrivateKey, kid: String?) async throws -> String {
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: key, kid: kid.map { JWKIdentifier(string: $0) })
        var header = JWTHeader()
        header.kid = kid
        return try await collection.sign(AnyClaims(claims), kid: kid.map { JWKIdentifier(string: $0) }, header: header)
    }

    /// A token assembled by hand: any header, any claims, any signature bytes (for forged tokens).
    static func craft(header: JSONValue, claims: JSONValue, signature: (String) -> Data = { _ in Data() }) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput = "\(base64URL(try encoder.encode(header))).\(base64URL(try encoder.encode(claims)))"
        return "\(signingInput).\(base64URL(signature(signingInput)))"
    }

    static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An HTTP client over `transport` that never retries or waits, so request counts are exact.
    static func client(_ transport: ScriptedTransport) -> HTTPClient {
        HTTPClient(transport: transport, retryPolicy: RetryPolicy(maxRetries: 0), maxJitter: .zero, sleep: { _ in })
    }
}

extension IdFlowError {
    /// The message of a `.security` error, nil for any other case, so a test fails if the kind is wrong.
    var securityMessage: String? {
        if case .security(let message, _) = self { return message }
        return nil
    }
}
