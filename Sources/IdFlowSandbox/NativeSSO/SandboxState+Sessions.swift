import Foundation

/// A sign-in: what every login starts and every token of it shares (`sid`), what a device secret stands for
/// (native-sso.md §1.2) and what the token exchange reloads (native-sso.md §1.4).
struct SignInSession: Sendable {
    let sid: String
    let userId: String
    let authTime: Date
    /// The factors the sign-in used (the ID token's `amr`), for an app's assurance rule.
    var amr: [String] = ["pwd"]
    /// The idle timer's start, on the sandbox clock: the login and each exchange through the session.
    var lastUsed: Date
    var deviceSecret: String?
    /// Ended by revoking its device secret; kept until its idle expiry so that the exchange can say so.
    var ended = false

    /// Two factors or more: what an app with `nativeSSO.requireMFA` wants (native-sso.md §1.4).
    var hadMFA: Bool { amr.contains("mfa") || Set(amr).subtracting(["mfa"]).count >= 2 }
}

extension SandboxState {
    /// The device secret keeps the idle lifetime of the refresh token it was minted with (native-sso.md §1.4); the
    /// session it stands for lives as long.
    static let sessionIdleLifetime = refreshTokenIdleLifetime
    static let deviceSecretTokenType = "urn:x-oath:params:oauth:token-type:device-secret"

    /// Starts the session of a login; returns its `sid` (shaped like the recorded one, `idx` and 22 characters).
    func startSignInSession(userId: String, authTime: Date) -> String {
        let sid = "idx" + RandomToken.string(count: 22, alphabet: RandomToken.urlSafeAlphabet)
        oauth.sessions[sid] = SignInSession(sid: sid, userId: userId, authTime: authTime, lastUsed: clock.now)
        return sid
    }

    /// The session, if it has not ended, is within its idle lifetime and its user is still active.
    func liveSession(_ sid: String) -> SignInSession? {
        guard let session = oauth.sessions[sid], !session.ended,
            clock.now.timeIntervalSince(session.lastUsed) < Self.sessionIdleLifetime,
            directory.users[session.userId]?.status == .active
        else { return nil }
        return session
    }

    /// Adds the factors a grant's ID token names (a Direct Authentication MFA sign-in sets them after `makeGrant`).
    func noteSessionFactors(sid: String, amr: [String]) {
        guard var session = oauth.sessions[sid] else { return }
        for method in amr where !session.amr.contains(method) { session.amr.append(method) }
        oauth.sessions[sid] = session
    }

    /// Mints the session's device secret: 32 random bytes in base64, opaque to clients (native-sso.md §5).
    func mintDeviceSecret(sid: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
        oauth.sessions[sid]?.deviceSecret = secret
        oauth.deviceSecrets[secret] = sid
        return secret
    }

    /// The session a device secret stands for, ended or not.
    func session(ofDeviceSecret secret: String) -> SignInSession? {
        oauth.deviceSecrets[secret].flatMap { oauth.sessions[$0] }
    }

    /// Revoking the device secret (native-sso.md §1.5): the session ends, and every token minted under its `sid`,
    /// for every app.
    func endSignInSession(sid: String) {
        noteRecordActivity()
        oauth.sessions[sid]?.ended = true
        for (id, family) in oauth.tokenFamilies where family.sid == sid { oauth.tokenFamilies[id]?.revoked = true }
    }

    /// The `sid` introspection shows for a token of a family that carries a device secret (native-sso.md §1.5).
    func introspectedSessionID(familyID: String) -> String? {
        guard let family = oauth.tokenFamilies[familyID], family.carriesDeviceSecret else { return nil }
        return family.sid
    }

    func familyID(ofAccessToken jti: String) -> String? { oauth.accessTokens[jti]?.familyID }
    func familyID(ofRefreshToken token: String) -> String? { oauth.refreshTokens[token]?.familyID }

    /// `ds_hash`: base64url of the left 16 bytes of SHA-256 over the secret, as `at_hash` (native-sso.md §1.2).
    static func deviceSecretHash(_ secret: String) -> String {
        SigningKey.atHash(secret)
    }
}
