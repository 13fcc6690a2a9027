import Crypto
import Foundation
import JWTKit
import NIOConcurrencyHelpers
import _CryptoExtras

/// A public key a client signs with: a service app's registered key (PEM or JWK) or the key in a DPoP proof's
/// header. Kept as its public JWK members, which is what RFC 7638 thumbprints and jwt-kit's verifier both read.
struct ClientPublicKey: Sendable, Equatable {
    /// The public members only (`kty` with `n`, `e` or `crv`, `x`, `y`).
    let members: [String: String]
    /// The key id it is registered under, if any.
    let kid: String?

    /// The signature algorithms Okta accepts for assertions and proofs (the `algs` of its DPoP challenges).
    static let algorithms = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512"]
    /// Members that only a private key (or a symmetric one) has: a JWK carrying any of them is refused.
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Why a key cannot be used; the text is for the configuration error or the log.
    struct Unusable: Error {
        let reason: String
    }

    init(members: [String: String], kid: String?) {
        self.members = members
        self.kid = kid
    }

    /// A public RSA or EC JWK; a private or symmetric one is refused.
    init(jwk: [String: Any]) throws(Unusable) {
        guard Self.privateMembers.isDisjoint(with: jwk.keys) else { throw Unusable(reason: "the JWK has private members") }
        let string = { (name: String) in jwk[name] as? String }
        switch string("kty") {
        case "RSA":
            guard let n = string("n"), let e = string("e"), !n.isEmpty, !e.isEmpty else {
                throw Unusable(reason: "an RSA JWK needs n and e")
            }
            members = ["kty": "RSA", "n": n, "e": e]
        case "EC":
            guard let crv = string("crv"), ["P-256", "P-384", "P-521"].contains(crv), let x = string("x"), let y = string("y") else {
                throw Unusable(reason: "an EC JWK needs crv (P-256, P-384 or P-521), x and y")
            }
            members = ["kty": "EC", "crv": crv, "x": x, "y": y]
        default:
            throw Unusable(reason: "kty must be RSA or EC")
        }
        kid = string("kid")
    }

    /// A PEM public key (SubjectPublicKeyInfo), RSA or EC.
    init(pem: String, kid: String?) throws(Unusable) {
        self.kid = kid
        if let rsa = try? Insecure.RSA.PublicKey(pem: pem), let (modulus, exponent) = try? rsa.getKeyPrimitives() {
            members = ["kty": "RSA", "n": modulus.base64URLEncoded, "e": exponent.base64URLEncoded]
            return
        }
        let curves: [(String, () throws -> ECDSAParameters?)] = [
            ("P-256", { try ES256PublicKey(pem: pem).parameters }), ("P-384", { try ES384PublicKey(pem: pem).parameters }),
            ("P-521", { try ES512PublicKey(pem: pem).parameters }),
        ]
        for (curve, parameters) in curves {
            if let point = try? parameters() {
                members = ["kty": "EC", "crv": curve, "x": point.x, "y": point.y]
                return
            }
        }
        throw Unusable(reason: "not a PEM RSA or EC (P-256, P-384, P-521) public key")
    }

    /// RFC 7638: base64url(SHA-256) of the required members, in lexicographic order, without whitespace.
    /// jwt-kit has no helper for it; the members are base64url or fixed names, so none needs JSON escaping.
    var thumbprint: String {
        let required = members["kty"] == "RSA" ? ["e", "kty", "n"] : ["crv", "kty", "x", "y"]
        let canonical = "{" + required.map { "\"\($0)\":\"\(members[$0] ?? "")\"" }.joined(separator: ",") + "}"
        return Data(SHA256.hash(data: Data(canonical.utf8))).base64URLEncoded
    }

    /// Whether `algorithm` fits this key: RS* for RSA, the ES* of the key's curve for EC.
    func accepts(algorithm: String) -> Bool {
        switch members["kty"] {
        case "RSA": return ["RS256", "RS384", "RS512"].contains(algorithm)
        case "EC":
            let byCurve = ["P-256": "ES256", "P-384": "ES384", "P-521": "ES512"]
            return byCurve[members["crv"] ?? ""] == algorithm
        default: return false
        }
    }

    /// Checks the signature of `token` (made with `algorithm`, which must fit the key) and decodes its claims.
    /// jwt-kit verifies; the JWK given to it carries the algorithm, so the token's `alg` cannot pick another.
    func verify<Claims: JWTPayload>(_ token: String, algorithm: String, as type: Claims.Type) async throws -> Claims {
        guard accepts(algorithm: algorithm) else { throw Unusable(reason: "the algorithm does not fit the key") }
        return try await collection(algorithm: algorithm).verify(token, as: type)
    }

    /// jwt-kit's verifier for this key and algorithm. Made once per key: a DPoP key signs every request of a run
    /// (a batch of thousands), and building the collection cost more than checking the signature.
    private func collection(algorithm: String) async throws -> JWTKeyCollection {
        let cacheKey = thumbprint + " " + algorithm
        if let cached = Self.collections.withLockedValue({ $0[cacheKey] }) { return cached }
        var object: [String: String] = members
        object["alg"] = algorithm
        object["kid"] = "client-key"
        let jwk = try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(object))
        let keys = try await JWTKeyCollection().add(jwk: jwk)
        Self.collections.withLockedValue { cache in
            // Bounded: a peer that sends a new key per proof cannot make it grow without end.
            if cache.count >= 1024 { cache.removeAll(keepingCapacity: true) }
            cache[cacheKey] = keys
        }
        return keys
    }

    private static let collections = NIOLockedValueBox<[String: JWTKeyCollection]>([:])
}

/// The parts of a compact JWS the sandbox reads before trusting it: the JOSE header as JSON.
enum CompactJWT {
    /// The header object, or nil when `token` is not three base64url parts with a JSON object first.
    static func header(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty, let data = Data(base64URLEncoded: String(parts[0])) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
