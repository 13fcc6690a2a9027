import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import JWTKit
import Testing

/// A PKCE verifier and its S256 challenge, computed independently of the sandbox.
struct PKCEPair: Sendable {
    let verifier: String
    let challenge: String

    init(verifier: String = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk" + UUID().uuidString.prefix(8)) {
        self.verifier = verifier
        challenge = base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}

func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// Every claim the sandbox may put in an access token (a user's, a client-credentials one, a DPoP-bound one);
/// optionals so a test can see what is absent.
struct TestAccessClaims: JWTPayload {
    /// `cnf` of a DPoP-bound token: the key's thumbprint.
    struct Confirmation: Codable {
        var jkt: String?
    }
    var ver: Int?
    var jti: String?
    var iss: String?
    var aud: String?
    var iat: Int?
    var exp: Int?
    var cid: String?
    var uid: String?
    var scp: [String]?
    var sub: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var auth_time: Int?
    var cnf: Confirmation?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Every claim the sandbox may put in an ID token.
struct TestIDClaims: JWTPayload {
    var sub: String?
    var name: String?
    var email: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var email_verified: Bool?
    var ver: Int?
    var iss: String?
    var aud: String?
    var iat: Int?
    var exp: Int?
    var jti: String?
    var amr: [String]?
    var idp: String?
    var nonce: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var preferred_username: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var auth_time: Int?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var at_hash: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The parts of a redirect `Location` (query or fragment parameters).
struct RedirectTarget {
    let base: String
    let parameters: [String: String]

    init(_ location: String) {
        let separatorIndex = location.firstIndex { $0 == "?" || $0 == "#" } ?? location.endIndex
        base = String(location[..<separatorIndex])
        var parameters: [String: String] = [:]
        if separatorIndex < location.endIndex {
            for pair in location[location.index(after: separatorIndex)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let value = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ") : ""
                parameters[parts[0]] = value.removingPercentEncoding ?? value
            }
        }
        self.parameters = parameters
    }
}

extension SandboxClient {
    static let redirectURI = "com.example.idflow:/callback"
    static let defaultScope = "openid profile email offline_access"

    /// A `/v1/authorize` path for the public client with every parameter a good request has;
    /// `overrides` replaces or (with nil) removes parameters.
    func authorizePath(
        base: String = "/oauth2/default/v1", pkce: PKCEPair, scope: String = defaultScope, state: String = "st4te",
        nonce: String? = "n0nce", sessionToken: String? = nil, overrides: [String: String?] = [:]
    ) -> String {
        var parameters: [(String, String?)] = [
            ("client_id", "0oaidflowsandbox0000"), ("redirect_uri", Self.redirectURI), ("response_type", "code"),
            ("scope", scope), ("state", state), ("nonce", nonce), ("code_challenge", pkce.challenge),
            ("code_challenge_method", "S256"), ("sessionToken", sessionToken),
        ]
        for (name, value) in overrides {
            if let index = parameters.firstIndex(where: { $0.0 == name }) {
                parameters[index].1 = value
            } else {
                parameters.append((name, value))
            }
        }
        let query = parameters.compactMap { name, value in value.map { "\(name)=\(formEscape($0))" } }
        return "\(base)/authorize?" + query.joined(separator: "&")
    }

    /// GET `/authorize` like a browser that does not follow redirects.
    func authorize(_ path: String, cookie: String? = nil) async throws -> Reply {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return try await send(.get, path, headers: headers, auth: .none)
    }

    /// The redirect of a 302, failing the test if there is none.
    func redirectTarget(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) throws -> RedirectTarget {
        #expect(reply.status == .found, "expected a redirect: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return RedirectTarget(try #require(reply.header("Location"), sourceLocation: sourceLocation))
    }

    /// `grant_type=authorization_code` for the public client.
    func exchange(
        code: String, pkce: PKCEPair, base: String = "/oauth2/default/v1", redirectURI: String = redirectURI,
        clientId: String = "0oaidflowsandbox0000"
    ) async throws -> Reply {
        try await postForm(
            "\(base)/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                ("code_verifier", pkce.verifier), ("client_id", clientId),
            ])
    }

    /// `grant_type=refresh_token` for the public client.
    func refresh(_ refreshToken: String, scope: String? = nil, base: String = "/oauth2/default/v1") async throws -> Reply {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "0oaidflowsandbox0000")]
        if let scope { fields.append(("scope", scope)) }
        return try await postForm("\(base)/token", fields)
    }

    /// Registers a user and runs the code flow with its session token; returns the token response.
    func signInWithPKCE(
        email: String, scope: String = defaultScope, nonce: String? = "n0nce", base: String = "/oauth2/default/v1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let (_, sessionToken) = try await registerActiveUser(email: email, sourceLocation: sourceLocation)
        let pkce = PKCEPair()
        let reply = try await authorize(
            authorizePath(base: base, pkce: pkce, scope: scope, nonce: nonce, sessionToken: sessionToken))
        let code = try #require(try redirectTarget(reply).parameters["code"], sourceLocation: sourceLocation)
        let tokens = try await exchange(code: code, pkce: pkce, base: base)
        #expect(tokens.status == .ok, "token: \(tokens.text)", sourceLocation: sourceLocation)
        return try tokens.object(sourceLocation: sourceLocation)
    }

    /// The served JWKS as a jwt-kit key collection, to check signatures the way a client would.
    func servedKeys(base: String = "/oauth2/default/v1") async throws -> JWTKeyCollection {
        let jwks = try await send(.get, "\(base)/keys", auth: .none)
        #expect(jwks.status == .ok)
        return try await JWTKeyCollection().add(jwksJSON: jwks.text)
    }

    /// `POST /v1/introspect` as the public client.
    func introspect(_ token: String, base: String = "/oauth2/default/v1") async throws -> [String: Any] {
        let reply = try await postForm("\(base)/introspect", [("token", token), ("client_id", "0oaidflowsandbox0000")])
        #expect(reply.status == .ok, "introspect: \(reply.text)")
        return try reply.object()
    }

    func userInfo(_ accessToken: String, base: String = "/oauth2/default/v1") async throws -> Reply {
        try await send(.get, "\(base)/userinfo", headers: [.authorization: "Bearer \(accessToken)"], auth: .none)
    }
}

/// The decoded JOSE header of a JWT.
func jwtHeader(_ token: String) throws -> [String: Any] {
    var segment = String(token.split(separator: ".")[0])
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while segment.count % 4 != 0 { segment += "=" }
    let data = try #require(Data(base64Encoded: segment))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// The `txn` of the sign-in page, found the way the brief's `sed` expression finds it.
func signInTransaction(_ html: String) -> String? {
    for line in html.split(separator: "\n") {
        if let range = line.range(of: #"name="txn" value=""#) {
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }
    return nil
}
