import Foundation
import Hummingbird
import URINormalization

/// RFC 7523 §2.1, `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` for a service app: an assertion its
/// registered key signed buys an access token for the user it names (native-sso.md §6). A push authenticator's
/// maintenance assertion uses the same grant type; an assertion whose issuer is no service app is left to it.
struct JWTBearerGrant {
    let state: SandboxState

    /// An assertion may live an hour at most, as a client assertion may (`ClientAssertionVerifier.maximumLifetime`).
    static let maximumLifetime: TimeInterval = 3600

    /// RFC 7523 §3.1: every refusal of the assertion is `invalid_grant`; the descriptions are the sandbox's own.
    static func invalid(_ description: String) -> OAuthErrorResponse {
        OAuthErrorResponse(.badRequest, "invalid_grant", description)
    }
    static let badSignature = invalid("The assertion's signature does not verify with a registered key of its issuer.")
    static let unknownSubject = invalid("The assertion's subject is not an active user.")
    static let wrongAudience = invalid("The assertion's audience must be this authorization server's issuer or token endpoint.")
    static let missingExpiry = invalid("The assertion must contain the 'exp' claim as seconds since epoch.")
    static let expired = invalid("The assertion has expired.")
    static let tooLong = invalid("The assertion's expiration is more than an hour away.")
    static let missingID = invalid("The assertion must contain a 'jti' claim.")
    static let replayed = invalid("The assertion has already been used.")

    /// The grant's tokens, or nil when the assertion's issuer is not a service app (the push authenticator's case).
    func grant(_ form: FormParameters, path: String, server: HostedAuthorizationServer) async throws -> UnsignedTokens? {
        let assertion = try Required.text(form["assertion"], else: OAuthErrorResponse.missingParameter("assertion"))
        let registry = try await state.serviceAppRegistry()
        guard let header = CompactJWT.header(of: assertion), let issuer = Self.issuer(of: assertion), let app = registry.app(issuer)
        else { return nil }
        if let clientId = form["client_id"], clientId != app.clientId {
            throw ClientAuthentication.invalidClient("Invalid value for 'client_id' parameter.")
        }
        let kid = header["kid"] as? String
        let algorithm = header["alg"] as? String ?? ""
        let key = kid.flatMap { kid in app.keys.first { $0.kid == kid } } ?? (app.keys.count == 1 ? app.keys[0] : nil)
        guard let key, key.accepts(algorithm: algorithm),
            let claims = try? await key.verify(assertion, algorithm: algorithm, as: ClientAssertionClaims.self)
        else { throw Self.badSignature }
        let orgURL = await state.orgURL
        var audiences = await state.endpointURLs(path: path)
        let issuerURL = server.issuer(orgURL: orgURL)
        audiences.insert(URINormalization.normalized(issuerURL) ?? issuerURL)
        guard let aud = claims.aud?.values, aud.contains(where: { audiences.contains(URINormalization.normalized($0) ?? $0) })
        else { throw Self.wrongAudience }
        guard let exp = claims.exp else { throw Self.missingExpiry }
        let now = await state.now.timeIntervalSince1970
        guard exp > now else { throw Self.expired }
        guard exp - now <= Self.maximumLifetime + ClientAssertionVerifier.clockSkew else { throw Self.tooLong }
        guard let jti = claims.jti, !jti.isEmpty else { throw Self.missingID }
        let scopes = (form["scope"] ?? "").split(separator: " ").map(String.init)
        guard !scopes.isEmpty else { throw ClientCredentialsGrant.noScopes }
        // A user's scopes, but no refresh token and no session to share: the assertion is the credential.
        let refused: Set<String> = ["offline_access", "device_sso", "interclient_access"]
        guard scopes.allSatisfy({ server.scopesSupported.contains($0) && !refused.contains($0) }) else {
            throw TokenExchangeGrant.invalidScope
        }
        return try await state.jwtBearerGrant(
            subject: claims.sub ?? "", clientId: app.clientId, server: server, scopes: scopes, jti: jti,
            expiresAt: Date(timeIntervalSince1970: exp))
    }

    /// The `iss` of a JWT, read before its signature is checked only to find the key.
    private static func issuer(of token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[1])),
            let payload = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        return payload["iss"] as? String
    }
}

extension SandboxState {
    /// The replay check and the tokens in one step of the actor: the `jti` once per issuer until the assertion's
    /// `exp`, the subject an active user by id or login (native-sso.md §6).
    func jwtBearerGrant(
        subject: String, clientId: String, server: HostedAuthorizationServer, scopes: [String], jti: String, expiresAt: Date
    ) throws -> UnsignedTokens {
        noteRecordActivity()
        let key = clientId + " " + jti
        if let until = oauth.usedBearerAssertionIDs[key], until > clock.now { throw JWTBearerGrant.replayed }
        guard let user = try? user(idOrLogin: subject), user.status == .active else { throw JWTBearerGrant.unknownSubject }
        oauth.usedBearerAssertionIDs[key] = expiresAt
        let family = TokenFamily(
            id: RandomToken.string(count: 20), server: server, clientId: clientId, userId: user.id, scopes: scopes, authTime: clock.now)
        oauth.tokenFamilies[family.id] = family
        return makeGrant(family: family, scopes: scopes, nonce: nil)
    }
}
