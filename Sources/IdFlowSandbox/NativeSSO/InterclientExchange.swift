import Foundation
import Hummingbird
import JWTKit

/// The claims of an interclient token: a JWT the sandbox signs, bound to the target app and the origin's session
/// (native-sso.md §2.2).
struct InterclientTokenClaims: JWTPayload, Equatable {
    var iss: String
    /// `urn:okta:apps:{target client id}`.
    var aud: String
    /// The user id.
    var sub: String
    var sid: String
    /// The origin app.
    var cid: String
    var jti: String
    var iat: Int
    var exp: Int

    /// Expiry and single use are the sandbox's records', on its clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// What the sandbox keeps of an interclient token until it expires, used or not, so a replay is recognised.
struct InterclientTokenRecord: Sendable {
    let sid: String
    let target: String
    let expiresAt: Date
    var used = false
}

/// Native-to-Web SSO's exchange (native-sso.md §2.2): the origin app's access and ID tokens for a one-time token the
/// browser takes to the target's `/authorize`.
struct InterclientExchange {
    let state: SandboxState

    static let lifetime: TimeInterval = 300
    static let audiencePrefix = "urn:okta:apps:"

    // native-sso.md §2.4, word for word.
    static let requiresScope = OAuthErrorResponse(
        .badRequest, "invalid_grant", "The 'actor_token' must have the 'interclient_access' scope to request a 'interclient_token'.")
    static let noTrust = OAuthErrorResponse(
        .forbidden, "access_denied", "No trust relationship exists between the client app and the target app.")
    static let otherClient = OAuthErrorResponse(
        .forbidden, "access_denied", "The requesting client app retrieved from session is different from the audience of the id_token.")
    static let noScopeTrust = OAuthErrorResponse(
        .badRequest, "invalid_scope",
        "The 'interclient_access' scope can only be granted to clients with a configured trust relationship.")

    func exchange(
        _ form: FormParameters, accessToken: String, idToken: String, client: OAuthClient, server: HostedAuthorizationServer
    ) async throws -> Response {
        let configuration = state.configuration
        guard let audience = form["audience"], audience.hasPrefix(Self.audiencePrefix),
            configuration.oauthClients.contains(where: { $0.id == audience.dropFirst(Self.audiencePrefix.count) })
        else { throw TokenExchangeGrant.invalidAudience }
        let target = String(audience.dropFirst(Self.audiencePrefix.count))
        guard configuration.trustsInterclient(target: target, origin: client.id) else { throw Self.noTrust }
        let key = try await state.signingKey()
        let orgURL = await state.orgURL
        guard let access = await key.verified(accessToken, as: AccessTokenClaims.self), access.cid == client.id,
            await state.activeAccessToken(access, server: server) != nil
        else { throw TokenExchangeGrant.invalidActorToken }
        guard access.scp.contains("interclient_access") else { throw Self.requiresScope }
        guard let id = await key.verified(idToken, as: IDTokenClaims.self), id.iss == server.issuer(orgURL: orgURL),
            id.sub == access.uid, let sid = id.sid
        else { throw TokenExchangeGrant.invalidSubjectToken }
        guard id.aud == client.id else { throw Self.otherClient }
        let claims = try await state.issueInterclientToken(
            sid: sid, target: target, origin: client.id, issuer: server.issuer(orgURL: orgURL), audience: audience)
        var response = Response.json([
            "token_type": "N_A", "expires_in": .int(Int(Self.lifetime)),
            "access_token": .string(try await key.sign(claims)),
            "issued_token_type": .string(TokenExchangeGrant.interclientTokenType),
        ])
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }
}

extension SandboxState {
    /// Records a new interclient token for a live session; the session must still be alive (native-sso.md §2.2).
    func issueInterclientToken(sid: String, target: String, origin: String, issuer: String, audience: String) throws
        -> InterclientTokenClaims
    {
        noteRecordActivity()
        guard let session = liveSession(sid) else { throw TokenExchangeGrant.sessionEnded }
        let now = clock.now
        let jti = "IC." + RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        let expiresAt = now + InterclientExchange.lifetime
        oauth.interclientTokens[jti] = InterclientTokenRecord(sid: sid, target: target, expiresAt: expiresAt)
        let iat = Int(now.timeIntervalSince1970)
        return InterclientTokenClaims(
            iss: issuer, aud: audience, sub: session.userId, sid: sid, cid: origin, jti: jti, iat: iat,
            exp: iat + Int(InterclientExchange.lifetime))
    }

    /// `/authorize?interclient_token=`: the token once, for its target, while it and its session live; the browser is
    /// then signed in as the session's user (native-sso.md §2.3). The refusals are §2.4's, named `interclient_token`.
    func consumeInterclientToken(_ claims: InterclientTokenClaims, clientId: String, issuer: String) throws(AuthorizeController
        .RedirectedError)
        -> SessionGrant
    {
        noteRecordActivity()
        func refusal(_ error: String, _ description: String) -> AuthorizeController.RedirectedError {
            AuthorizeController.RedirectedError(error: error, description: description)
        }
        guard var record = oauth.interclientTokens[claims.jti], record.sid == claims.sid else {
            throw refusal("invalid_token", "The 'interclient_token' is invalid.")
        }
        guard !record.used else { throw refusal("one_time_sso_token_replayed", "The 'interclient_token' was already consumed.") }
        guard record.expiresAt > clock.now else { throw refusal("invalid_token", "The 'interclient_token' is invalid.") }
        guard claims.iss == issuer else { throw refusal("invalid_token", "The 'interclient_token' has an invalid issuer.") }
        guard record.target == clientId else { throw refusal("invalid_token", "The 'interclient_token' has an invalid audience.") }
        record.used = true
        oauth.interclientTokens[claims.jti] = record
        guard let session = liveSession(record.sid) else { throw refusal("invalid_token", "The 'interclient_token' was revoked.") }
        directory.users[session.userId]?.lastLogin = clock.now
        return SessionGrant(userId: session.userId, authTime: session.authTime)
    }
}
