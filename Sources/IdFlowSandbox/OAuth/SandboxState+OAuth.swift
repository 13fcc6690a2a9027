import Crypto
import Foundation

/// The OAuth 2.0 / OIDC authorization server (okta-core.md §D): pending sign-ins, codes,
/// browser sessions and token families. Every method here is synchronous, so no other request
/// can interleave between a check and the change it allows (refresh rotation depends on it);
/// signing happens afterwards, outside the actor.
extension SandboxState {
    static let pendingAuthorizationLifetime: TimeInterval = 10 * 60
    static let authorizationCodeLifetime: TimeInterval = 300
    static let browserSessionLifetime: TimeInterval = 2 * 3600
    /// A refresh token unused for 7 days is dead (Okta's default idle expiry; no absolute limit).
    static let refreshTokenIdleLifetime: TimeInterval = 7 * 24 * 3600
    /// The org's identity provider id (`idp` claim); a per-org constant in a real org.
    static let orgIdentityProviderID = "00oidflowsandbox0000"

    static let invalidCode = OAuthErrorResponse(
        .badRequest, "invalid_grant", "The authorization code is invalid or has expired.")
    static let invalidRefreshToken = OAuthErrorResponse(
        .badRequest, "invalid_grant", "The refresh token is invalid or expired.")

    /// The signing key, generated on first use (once, even if requests race for it).
    public func prepareSigningKey() async throws {
        _ = try await signingKey()
    }

    func signingKey() async throws -> SigningKey {
        if let task = oauth.signingKeyTask { return try await task.value }
        let task = Task { try await SigningKey.generate() }
        oauth.signingKeyTask = task
        return try await task.value
    }

    var oauthClients: [OAuthClient] { configuration.oauthClients }

    // MARK: Sign-in

    /// Parks an `/authorize` request until the sign-in form is posted; returns its `txn`.
    func beginAuthorization(_ request: AuthorizeRequest) -> String {
        noteRecordActivity()
        let txn = RandomToken.string(count: 24, alphabet: RandomToken.urlSafeAlphabet)
        oauth.pendingAuthorizations[txn] = PendingAuthorization(
            request: request, expiresAt: clock.now + Self.pendingAuthorizationLifetime)
        return txn
    }

    /// The sign-in form's POST: good credentials consume the `txn`, start a browser session and
    /// issue a code; bad ones leave the `txn` alive for another try.
    func completeSignIn(txn: String, server: HostedAuthorizationServer, username: String, password: String) -> SignInResult {
        guard let pending = oauth.pendingAuthorizations[txn], pending.expiresAt > clock.now, pending.request.server == server
        else {
            oauth.pendingAuthorizations[txn] = nil
            return .expired
        }
        guard let user = verifiedUser(username: username, password: password) else {
            return .rejected(pending.request)
        }
        oauth.pendingAuthorizations[txn] = nil
        let now = clock.now
        directory.users[user.id]!.lastLogin = now
        let grant = SessionGrant(userId: user.id, authTime: now)
        let sid = startBrowserSession(grant)
        return .signedIn(request: pending.request, code: issueCode(for: pending.request, grant: grant), sid: sid)
    }

    /// Remembers a signed-in browser; returns the `sid` cookie value.
    func startBrowserSession(_ grant: SessionGrant) -> String {
        noteRecordActivity()
        let sid = RandomToken.string(count: 32, alphabet: RandomToken.urlSafeAlphabet)
        oauth.browserSessions[sid] = BrowserSession(grant: grant, expiresAt: clock.now + Self.browserSessionLifetime)
        return sid
    }

    /// The session behind a `sid` cookie, if it is still valid and its user still ACTIVE.
    func browserSession(sid: String) -> SessionGrant? {
        guard let session = oauth.browserSessions[sid], session.expiresAt > clock.now,
            directory.users[session.grant.userId]?.status == .active
        else { return nil }
        return session.grant
    }

    /// Ends the browser session of `sid` and, when known, every browser session of `userId` (logout).
    func endBrowserSessions(sid: String?, userId: String?) {
        if let sid { oauth.browserSessions[sid] = nil }
        if let userId { oauth.browserSessions = oauth.browserSessions.filter { $0.value.grant.userId != userId } }
    }

    // MARK: Codes and tokens

    /// A single-use code bound to the request (client, redirect URI, PKCE, scopes, nonce) and user.
    func issueCode(for request: AuthorizeRequest, grant: SessionGrant) -> String {
        noteRecordActivity()
        let code = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        oauth.authorizationCodes[code] = AuthorizationCodeRecord(
            request: request, userId: grant.userId, authTime: grant.authTime,
            expiresAt: clock.now + Self.authorizationCodeLifetime)
        return code
    }

    /// `grant_type=authorization_code`. A replayed code also revokes what it produced the first time.
    func exchangeCode(
        _ code: String, client: OAuthClient, server: HostedAuthorizationServer, redirectURI: String?, codeVerifier: String?
    ) throws -> UnsignedTokens {
        noteRecordActivity()
        guard var record = oauth.authorizationCodes[code] else { throw Self.invalidCode }
        if record.used {
            if let familyID = record.familyID { revokeFamily(familyID) }
            throw Self.invalidCode
        }
        record.used = true
        oauth.authorizationCodes[code] = record
        let request = record.request
        guard record.expiresAt > clock.now, request.client.id == client.id, request.server == server,
            redirectURI == request.redirectURI
        else { throw Self.invalidCode }
        if let challenge = request.codeChallenge {
            guard let codeVerifier else {
                throw OAuthErrorResponse(
                    .badRequest, "invalid_request",
                    "PKCE code verifier is required when the parameter code_challenge was included in the authorize request.")
            }
            let computed = Data(SHA256.hash(data: Data(codeVerifier.utf8))).base64URLEncoded
            guard computed == challenge else {
                throw OAuthErrorResponse(.badRequest, "invalid_grant", "PKCE verification failed.")
            }
        }
        guard directory.users[record.userId]?.status == .active else { throw Self.invalidCode }
        let family = TokenFamily(
            id: RandomToken.string(count: 20), server: server, clientId: client.id, userId: record.userId,
            scopes: request.scopes, authTime: record.authTime)
        oauth.tokenFamilies[family.id] = family
        record.familyID = family.id
        oauth.authorizationCodes[code] = record
        return makeGrant(family: family, scopes: request.scopes, nonce: request.nonce)
    }

    /// `grant_type=refresh_token` with rotation: every use that issues a new refresh token in the same
    /// family starts the previous one's grace period (`refreshTokenGraceSeconds`), after which reusing it
    /// revokes the whole family.
    ///
    /// A refresh whose `scope` leaves out `offline_access` gets no successor (as at Okta), so it must
    /// not rotate either: the presented token stays the client's only one and keeps working.
    func refresh(
        _ token: String, client: OAuthClient, server: HostedAuthorizationServer, requestedScopes: [String]?
    ) throws -> UnsignedTokens {
        noteRecordActivity()
        let now = clock.now
        guard var record = oauth.refreshTokens[token], !record.revoked, var family = oauth.tokenFamilies[record.familyID],
            !family.revoked, family.clientId == client.id, family.server == server,
            now.timeIntervalSince(record.lastUsed) < Self.refreshTokenIdleLifetime,
            directory.users[family.userId]?.status == .active
        else { throw Self.invalidRefreshToken }
        if let rotatedAt = record.rotatedAt,
            now.timeIntervalSince(rotatedAt) > TimeInterval(configuration.refreshTokenGraceSeconds)
        {
            family.revoked = true
            oauth.tokenFamilies[family.id] = family
            throw Self.invalidRefreshToken
        }
        let scopes = requestedScopes ?? family.scopes
        guard Set(scopes).isSubset(of: Set(family.scopes)), !scopes.isEmpty else {
            throw OAuthErrorResponse(
                .badRequest, "invalid_scope",
                "The requested scope is invalid, unknown, or malformed. A refresh may only ask for granted scopes.")
        }
        if Self.issuesRefreshToken(scopes), record.rotatedAt == nil { record.rotatedAt = now }
        record.lastUsed = now
        oauth.refreshTokens[token] = record
        return makeGrant(family: family, scopes: scopes, nonce: nil)
    }

    /// Builds the claims of a token response and records the tokens. A refresh token is issued
    /// only with `offline_access`, an ID token only with `openid`.
    ///
    /// A family's first grant is a login: it starts the session whose `sid` every ID token of the family carries, and
    /// mints the device secret when a client allowed it asks for `openid device_sso offline_access` (native-sso.md §1.2).
    func makeGrant(family: TokenFamily, scopes: [String], nonce: String?) -> UnsignedTokens {
        var family = family
        if family.sid == nil {
            family.sid = startSignInSession(userId: family.userId, authTime: family.authTime)
            oauth.tokenFamilies[family.id]?.sid = family.sid
        }
        var deviceSecret: String?
        if Set(["openid", "device_sso", "offline_access"]).isSubset(of: scopes), configuration.allowsDeviceSSO(family.clientId),
            let sid = family.sid, oauth.sessions[sid]?.deviceSecret == nil
        {
            deviceSecret = mintDeviceSecret(sid: sid)
            family.carriesDeviceSecret = true
            oauth.tokenFamilies[family.id]?.carriesDeviceSecret = true
        }
        let now = clock.now
        let iat = Int(now.timeIntervalSince1970)
        let user = directory.users[family.userId]!
        let lifetime = configuration.accessTokenLifetimeSeconds
        let jti = "AT." + RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        oauth.accessTokens[jti] = AccessTokenRecord(familyID: family.id, expiresAt: now + TimeInterval(lifetime))
        let issuer = family.server.issuer(orgURL: orgURL)
        let access = AccessTokenClaims(
            jti: jti, iss: issuer, aud: family.server.audience(orgURL: orgURL), iat: iat, exp: iat + lifetime,
            cid: family.clientId, uid: user.id, scp: scopes, sub: user.login,
            auth_time: Int(family.authTime.timeIntervalSince1970))

        var idToken: IDTokenClaims?
        if scopes.contains("openid") {
            let profile = scopes.contains("profile")
            let email = scopes.contains("email")
            idToken = IDTokenClaims(
                sub: user.id, name: profile ? Self.displayName(user) : nil, email: email ? user.email : nil,
                email_verified: email ? true : nil, iss: issuer, aud: family.clientId, iat: iat,
                exp: iat + configuration.idTokenLifetimeSeconds,
                jti: "ID." + RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet),
                idp: Self.orgIdentityProviderID, nonce: nonce, preferred_username: profile ? user.login : nil,
                auth_time: Int(family.authTime.timeIntervalSince1970), sid: family.sid)
            if family.carriesDeviceSecret, let secret = family.sid.flatMap({ oauth.sessions[$0]?.deviceSecret }) {
                idToken?.ds_hash = Self.deviceSecretHash(secret)
            }
        }

        var refreshToken: String?
        if Self.issuesRefreshToken(scopes) {
            let token = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
            oauth.refreshTokens[token] = RefreshTokenRecord(familyID: family.id, lastUsed: now)
            refreshToken = token
        }
        return UnsignedTokens(
            accessToken: access, idToken: idToken, refreshToken: refreshToken, scopes: scopes, expiresIn: lifetime,
            deviceSecret: deviceSecret)
    }

    /// Okta issues a refresh token only for `offline_access`; refresh rotation follows the same rule,
    /// so the two decisions cannot drift apart.
    static func issuesRefreshToken(_ scopes: [String]) -> Bool {
        scopes.contains("offline_access")
    }

    /// "First Last" from the profile, or the login when there is no name.
    static func displayName(_ user: UserRecord) -> String {
        let parts = ["firstName", "lastName"].compactMap { user.profile[$0]?.stringValue }.filter { !$0.isEmpty }
        return parts.isEmpty ? user.login : parts.joined(separator: " ")
    }

    // MARK: Token state

    /// The statuses whose users' tokens keep working.
    static let tokenHoldingStatuses: Set<UserStatus> = [.active, .passwordExpired, .lockedOut, .recovery]

    /// The user behind a signed access token, if the token is active: known, not revoked (itself or
    /// its family), not expired by the sandbox clock, and from this authorization server. An expired, reset or
    /// locked password does not end the user's tokens (Okta revokes them on suspend and deactivate, not there): a
    /// phone must still answer the push that comes before PASSWORD_EXPIRED.
    func activeAccessToken(_ claims: AccessTokenClaims, server: HostedAuthorizationServer) -> UserRecord? {
        guard let record = oauth.accessTokens[claims.jti], !record.revoked, record.expiresAt > clock.now,
            let family = oauth.tokenFamilies[record.familyID], !family.revoked, family.server == server,
            let user = directory.users[family.userId], Self.tokenHoldingStatuses.contains(user.status)
        else { return nil }
        return user
    }

    /// An active refresh token's family, user and idle-expiry time, for introspection.
    func activeRefreshToken(_ token: String, server: HostedAuthorizationServer) -> (TokenFamily, UserRecord, Date)? {
        let now = clock.now
        guard let record = oauth.refreshTokens[token], !record.revoked,
            let family = oauth.tokenFamilies[record.familyID], !family.revoked, family.server == server,
            let user = directory.users[family.userId], user.status == .active
        else { return nil }
        let idleExpiry = record.lastUsed + Self.refreshTokenIdleLifetime
        let graceEnd = record.rotatedAt.map { $0 + TimeInterval(configuration.refreshTokenGraceSeconds) }
        guard idleExpiry > now, graceEnd.map({ $0 >= now }) ?? true else { return nil }
        return (family, user, idleExpiry)
    }

    /// `/v1/revoke` of a refresh token: the whole family dies. Unknown tokens are ignored.
    func revokeRefreshToken(_ token: String, clientId: String) {
        guard let record = oauth.refreshTokens[token], oauth.tokenFamilies[record.familyID]?.clientId == clientId else { return }
        revokeFamily(record.familyID)
    }

    /// `/v1/revoke` of an access token: only that token.
    func revokeAccessToken(jti: String, clientId: String) {
        guard let record = oauth.accessTokens[jti], oauth.tokenFamilies[record.familyID]?.clientId == clientId else { return }
        oauth.accessTokens[jti]?.revoked = true
    }

    func revokeFamily(_ familyID: String) {
        oauth.tokenFamilies[familyID]?.revoked = true
    }

    /// Deactivated or suspended users lose their browser sessions and every token.
    func endOAuthSessions(userId: String) {
        oauth.browserSessions = oauth.browserSessions.filter { $0.value.grant.userId != userId }
        for (id, family) in oauth.tokenFamilies where family.userId == userId { oauth.tokenFamilies[id]?.revoked = true }
    }
}
