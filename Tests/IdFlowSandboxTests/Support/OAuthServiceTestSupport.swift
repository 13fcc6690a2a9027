import Crypto
import Foundation
import HTTPTypes
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing
import _CryptoExtras

/// A client's key pair, made and used with swift-crypto and jwt-kit as a real client would: it signs client
/// assertions and DPoP proofs, and knows its public PEM, JWK and RFC 7638 thumbprint (computed here, not by the
/// sandbox).
struct TestClientKey: Sendable {
    let keys: JWTKeyCollection
    let algorithm: String
    let publicPEM: String
    /// The public JWK members.
    let jwk: [String: String]

    static func rsa() async throws -> TestClientKey {
        let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256)
        let (n, e) = try key.publicKey.getKeyPrimitives()
        return TestClientKey(
            keys: keys, algorithm: "RS256", publicPEM: key.publicKey.pemRepresentation,
            jwk: ["kty": "RSA", "n": base64URL(n), "e": base64URL(e)])
    }

    static func p256() async throws -> TestClientKey {
        let key = ES256PrivateKey()
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key)
        let point = try #require(key.publicKey.parameters)
        return TestClientKey(
            keys: keys, algorithm: "ES256", publicPEM: key.publicKey.pemRepresentation,
            jwk: ["kty": "EC", "crv": "P-256", "x": point.x, "y": point.y])
    }

    /// RFC 7638 §3: the required members in lexicographic order, no whitespace, SHA-256, base64url.
    var thumbprint: String {
        let names = jwk["kty"] == "RSA" ? ["e", "kty", "n"] : ["crv", "kty", "x", "y"]
        let json = "{" + names.map { "\"\($0)\":\"\(jwk[$0]!)\"" }.joined(separator: ",") + "}"
        return base64URL(Data(SHA256.hash(data: Data(json.utf8))))
    }

    /// A JWK Set with this key under `kid`.
    func jwks(kid: String) -> String {
        var member = jwk
        member["kid"] = kid
        let data = try! JSONSerialization.data(withJSONObject: ["keys": [member]], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    func sign(_ payload: some JWTPayload, header: JWTHeader = JWTHeader()) async throws -> String {
        try await keys.sign(payload, header: header)
    }

    /// A client assertion: iss = sub = `clientId`, `aud`, exp `lifetime` seconds after `now`, a fresh jti.
    func assertion(
        clientId: String, audience: String, now: Date, lifetime: TimeInterval = 300, jti: String? = UUID().uuidString,
        issuer: String? = nil, subject: String? = nil, kid: String? = nil
    ) async throws -> String {
        let seconds = Int(now.timeIntervalSince1970)
        let claims = TestAssertionClaims(
            iss: issuer ?? clientId, sub: subject ?? clientId, aud: audience, iat: seconds, exp: seconds + Int(lifetime), jti: jti)
        var header = JWTHeader()
        if let kid { header.kid = kid }
        return try await sign(claims, header: header)
    }

    /// A DPoP proof for `method` `url`; `ath` from `accessToken` when given.
    func proof(
        method: String = "POST", url: String, now: Date, nonce: String? = nil, accessToken: String? = nil,
        jti: String = UUID().uuidString, type: String = "dpop+jwt", publicJWK: [String: String]? = nil
    ) async throws -> String {
        let ath = accessToken.map { base64URL(Data(SHA256.hash(data: Data($0.utf8)))) }
        let claims = TestProofClaims(
            jti: jti, htm: method, htu: url, iat: Int(now.timeIntervalSince1970), nonce: nonce, ath: ath)
        let header: JWTHeader = [
            "typ": .string(type), "jwk": .object((publicJWK ?? jwk).mapValues { JWTHeaderField.string($0) }),
        ]
        return try await sign(claims, header: header)
    }
}

struct TestAssertionClaims: JWTPayload {
    var iss: String?
    var sub: String?
    var aud: String?
    var iat: Int?
    var exp: Int?
    var jti: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

struct TestProofClaims: JWTPayload {
    var jti: String?
    var htm: String?
    var htu: String?
    var iat: Int?
    var nonce: String?
    var ath: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The recorded catalogue of Okta's OAuth errors (okta-oauth-service), to compare descriptions with.
enum OktaOAuthErrorCatalogue {
    /// Whether Okta's catalogue lists `error` with exactly this description and status.
    static func lists(_ error: String, _ description: String, status: Int) throws -> Bool {
        let catalogue = try Fixtures.object("okta-oauth-service/oauth2-error-codes-service-app-dpop-subset.json")
        let entries = catalogue["errors"] as? [[String: Any]] ?? []
        return entries.contains {
            $0["errorCode"] as? String == error && $0["errorDescription"] as? String == description
                && ($0["statusCode"] as? Int) == status
        }
    }
}

extension Reply {
    /// `error` and `error_description` of an OAuth error body.
    func oauthError(sourceLocation: SourceLocation = #_sourceLocation) throws -> (error: String, description: String) {
        let body = try object(sourceLocation: sourceLocation)
        return (body["error"] as? String ?? "", body["error_description"] as? String ?? "")
    }

    /// Expects this OAuth error, and that Okta's catalogue lists it with this status.
    func expectCatalogued(
        _ status: HTTPResponse.Status, _ error: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(self.status == status, "\(self.status) \(text)", sourceLocation: sourceLocation)
        let (code, description) = try oauthError(sourceLocation: sourceLocation)
        #expect(code == error, "\(text)", sourceLocation: sourceLocation)
        #expect(try OktaOAuthErrorCatalogue.lists(code, description, status: status.code), "\(text)", sourceLocation: sourceLocation)
    }

    /// The parameters of a `WWW-Authenticate` challenge (`name="value"` pairs) and its scheme.
    func challenge(sourceLocation: SourceLocation = #_sourceLocation) throws -> (scheme: String, parameters: [String: String]) {
        let header = try #require(self.header("WWW-Authenticate"), "no WWW-Authenticate: \(text)", sourceLocation: sourceLocation)
        let scheme = String(header.prefix { $0 != " " })
        var parameters: [String: String] = [:]
        let pattern = try Regex(#"([a-z_]+)="((?:[^"\\]|\\.)*)""#)
        for match in header.matches(of: pattern) {
            if let name = match.output[1].substring, let value = match.output[2].substring {
                parameters[String(name)] = String(value)
            }
        }
        return (scheme, parameters)
    }
}

extension SandboxClient {
    /// A client-credentials request to `server` (`/oauth2/v1` by default) with a client assertion, and a proof
    /// when given.
    func clientCredentials(
        assertion: String?, scope: String? = "okta.users.read", base: String = "/oauth2/v1", proof: String? = nil,
        extra: [(String, String)] = []
    ) async throws -> Reply {
        var fields = [("grant_type", "client_credentials")]
        if let scope { fields.append(("scope", scope)) }
        if let assertion {
            fields += [
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"), ("client_assertion", assertion),
            ]
        }
        var headers: HTTPFields = [:]
        if let proof { headers[HTTPField.Name("DPoP")!] = proof }
        return try await postForm("\(base)/token", fields + extra, headers: headers)
    }

    /// The org URL the sandbox writes, which proofs and assertions name.
    var orgURL: String {
        get async { await state.orgURL }
    }

    /// The sandbox clock.
    var now: Date {
        get async { await state.now }
    }
}
