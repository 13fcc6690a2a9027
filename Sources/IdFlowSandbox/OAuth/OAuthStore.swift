import Foundation

/// What the OAuth 2.0 / OIDC authorization server keeps: the signing key, pending sign-ins, codes, browser
/// sessions and token families with their access and refresh tokens.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct OAuthStore: Sendable {
    /// The signing key's generation, started once on first use so racing requests share it.
    var signingKeyTask: Task<SigningKey, any Error>?
    var pendingAuthorizations: [String: PendingAuthorization] = [:]
    var authorizationCodes: [String: AuthorizationCodeRecord] = [:]
    var browserSessions: [String: BrowserSession] = [:]
    var tokenFamilies: [String: TokenFamily] = [:]
    var accessTokens: [String: AccessTokenRecord] = [:]
    var refreshTokens: [String: RefreshTokenRecord] = [:]
    /// Sign-in sessions by `sid`, and the sid of each device secret (native-sso.md §1).
    var sessions: [String: SignInSession] = [:]
    var deviceSecrets: [String: String] = [:]
    /// Interclient tokens by `jti`, kept after use until they expire so that a replay is recognised (native-sso.md §2.2).
    var interclientTokens: [String: InterclientTokenRecord] = [:]
    /// The `jti` of each JWT bearer assertion used, until its `exp` (native-sso.md §6).
    var usedBearerAssertionIDs: [String: Date] = [:]

    /// Drops what can no longer change an answer, keeping what reuse detection needs: a rotated refresh
    /// token lives until its own idle expiry, a family while any of its tokens is left, and a used code
    /// while its family lives (replaying it revokes that family).
    mutating func purge(now: Date) {
        pendingAuthorizations = pendingAuthorizations.filter { $0.value.expiresAt > now }
        browserSessions = browserSessions.filter { $0.value.expiresAt > now }
        // A session outlives its idle expiry by as long again, so that a late exchange hears it ended (native-sso.md §1.6).
        sessions = sessions.filter { now.timeIntervalSince($0.value.lastUsed) < 2 * SandboxState.sessionIdleLifetime }
        let liveSessions = sessions
        deviceSecrets = deviceSecrets.filter { liveSessions[$0.value] != nil }
        interclientTokens = interclientTokens.filter { $0.value.expiresAt > now }
        usedBearerAssertionIDs = usedBearerAssertionIDs.filter { $0.value > now }

        let families = tokenFamilies
        func liveFamily(_ id: String) -> Bool { families[id].map { !$0.revoked } ?? false }
        accessTokens = accessTokens.filter { !$0.value.revoked && $0.value.expiresAt > now && liveFamily($0.value.familyID) }
        refreshTokens = refreshTokens.filter {
            !$0.value.revoked && now.timeIntervalSince($0.value.lastUsed) < SandboxState.refreshTokenIdleLifetime
                && liveFamily($0.value.familyID)
        }
        var referenced = Set(accessTokens.values.map(\.familyID))
        referenced.formUnion(refreshTokens.values.map(\.familyID))
        tokenFamilies = tokenFamilies.filter { !$0.value.revoked && referenced.contains($0.key) }
        let keptFamilies = tokenFamilies
        authorizationCodes = authorizationCodes.filter { entry in
            entry.value.expiresAt > now || entry.value.familyID.map { keptFamilies[$0] != nil } ?? false
        }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        [
            "pendingAuthorizations": pendingAuthorizations.count,
            "authorizationCodes": authorizationCodes.count,
            "browserSessions": browserSessions.count,
            "tokenFamilies": tokenFamilies.count,
            "accessTokens": accessTokens.count,
            "refreshTokens": refreshTokens.count,
        ]
    }
}
