import Foundation

/// Which token of a stored login a helper works on.
public enum TokenKind: String, Sendable, CaseIterable {
    case access = "access_token"
    case refresh = "refresh_token"
    case id = "id_token"
}

/// The helpers around a login: inspect, verify, introspect, revoke, userinfo, logout. Each one works on a
/// token given by the caller or on the one stored for the profile.
public struct TokenTools: Sendable {
    public var clientSecret: Secret?

    public init(clientSecret: Secret? = nil) {
        self.clientSecret = clientSecret
    }

    /// The stored token of a kind, or an error that says to log in.
    public static func stored(_ kind: TokenKind, _ context: IdFlowContext) throws(IdFlowError) -> (String, StoredTokens) {
        let stored = try TokenStore(directory: context.configuration.profileDirectory)
            .loadRequired(profile: context.configuration.profile, hint: "log in first with `idflow login-pkce`, or pass the token")
        let token: String?
        switch kind {
        case .access: token = stored.tokens.accessToken
        case .refresh: token = stored.tokens.refreshToken
        case .id: token = stored.tokens.idToken
        }
        guard let token else { throw .localState("no \(kind.rawValue) is stored for profile \(context.configuration.profile)") }
        return (token, stored)
    }

    /// `token inspect`: the header and claims of any JWT, decoded only, with a human expiry.
    public struct Inspection: Encodable, Sendable {
        public var header: JSONValue
        public var claims: JSONValue
        public var expiresAt: String?
        public var expired: Bool?
        public var expiresIn: String?
        /// Always false: inspect decodes, it never checks a signature (use `token verify`).
        public var signatureVerified = false
    }

    public static func inspect(_ token: String, now: Date) throws(IdFlowError) -> Inspection {
        let jwt = try DecodedJWT(token)
        let expiry = jwt.expiresAt
        return Inspection(
            header: jwt.header, claims: jwt.claims, expiresAt: expiry.map(ISO8601.string), expired: expiry.map { $0 < now },
            expiresIn: expiry.map { humanInterval($0.timeIntervalSince(now)) })
    }

    static func humanInterval(_ seconds: TimeInterval) -> String {
        let magnitude = Int(abs(seconds))
        let text: String
        switch magnitude {
        case ..<60: text = "\(magnitude) s"
        case ..<3600: text = "\(magnitude / 60) min \(magnitude % 60) s"
        case ..<86400: text = "\(magnitude / 3600) h \(magnitude % 3600 / 60) min"
        default: text = "\(magnitude / 86400) d \(magnitude % 86400 / 3600) h"
        }
        return seconds < 0 ? "expired \(text) ago" : "in \(text)"
    }

    /// `token verify`: signature against the issuer's JWKS, `iss`, expiry; `aud` when asked.
    public struct Verification: Encodable, Sendable {
        public var valid: Bool
        public var issuer: String
        public var header: JSONValue
        public var claims: JSONValue
    }

    public func verify(_ token: String, audience: String?, context: IdFlowContext, issuer: URL? = nil) async throws(IdFlowError) -> Verification {
        let server = try await AuthorizationServer.discover(context, issuer: issuer, clientID: context.configuration.clientID ?? "-", clientSecret: clientSecret)
        let policy = TokenValidationPolicy(issuer: server.metadata.issuer, audience: audience, nonce: nil, accessToken: nil, now: context.now())
        let claims = try await server.validator.validate(token, policy: policy)
        return Verification(valid: true, issuer: server.metadata.issuer, header: try DecodedJWT(token).header, claims: claims)
    }

    /// `token introspect` (RFC 7662): the server's view of a token, active or not.
    public func introspect(_ token: String, hint: TokenKind?, context: IdFlowContext, server: AuthorizationServer) async throws(IdFlowError) -> JSONValue {
        let endpoint = try server.metadata.require(server.metadata.introspectionEndpoint, "introspection")
        var fields = [("token", token)]
        if let hint { fields.append(("token_type_hint", hint.rawValue)) }
        let (form, headers) = server.client.apply(to: fields)
        // Introspection changes nothing on the server, so it may be retried like a GET.
        return try await server.http.send(.form(endpoint, fields: form, headers: headers, isIdempotent: true)).json()
    }

    /// `token revoke` (RFC 7009): the server answers 200 even for a token it does not know.
    public func revoke(_ token: String, hint: TokenKind?, server: AuthorizationServer) async throws(IdFlowError) {
        let endpoint = try server.metadata.require(server.metadata.revocationEndpoint, "revocation")
        var fields = [("token", token)]
        if let hint { fields.append(("token_type_hint", hint.rawValue)) }
        let (form, headers) = server.client.apply(to: fields)
        let response = try await server.http.send(.form(endpoint, fields: form, headers: headers, isIdempotent: true))
        guard response.isSuccess else { throw response.failure() }
    }

    /// `userinfo`: the claims the issuer releases for an access token.
    public func userinfo(_ accessToken: String, server: AuthorizationServer) async throws(IdFlowError) -> JSONValue {
        let endpoint = try server.metadata.require(server.metadata.userinfoEndpoint, "userinfo")
        let response = try await server.http.send(.get(endpoint, headers: ["Authorization": "Bearer \(accessToken)"]))
        if response.status == 401 {
            let challenge = response.header("WWW-Authenticate") ?? "Bearer"
            throw .authentication("the access token was refused (\(challenge))", hint: "refresh it with `idflow refresh` or log in again")
        }
        return try response.json()
    }
}
