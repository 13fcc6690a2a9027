import Foundation

/// Service apps, client assertions, DPoP nonces and replay, and client-credentials tokens (okta-core.md §H).
/// Like the rest of the state, each check and the change it allows happen in one synchronous call.
extension SandboxState {
    /// Client-credentials tokens live one hour, fixed, as at Okta (§H2).
    static let serviceAccessTokenLifetime = 3600

    /// The service apps, resolved (and the default one's key generated) once.
    func serviceAppRegistry() async throws -> ServiceAppRegistry {
        if let task = oauthService.appsTask { return try await task.value }
        let configured = configuration.serviceApps
        let task = Task { try ServiceAppRegistry.make(configured) }
        oauthService.appsTask = task
        return try await task.value
    }

    /// Resolves the service apps at start-up; with the default app and `writingKeyFile`, writes its private key
    /// (mode 0600) and returns the file's path, which `info` then reports.
    func prepareServiceApps(writingKeyFile: Bool) async throws -> String? {
        let registry = try await serviceAppRegistry()
        guard writingKeyFile, let key = registry.defaultKey, let app = registry.apps.first else { return nil }
        let path = try CAFile.write(key.pem, name: "service-app-key")
        oauthService.appInfo = ServiceAppInfo(clientId: app.clientId, privateKeyFile: path, keyId: key.keyId, scopes: app.scopes)
        return path
    }

    /// Records an assertion's `jti` until its `exp`; false when the client used it before.
    func consumeAssertionID(_ jti: String, clientId: String, expiresAt: Date) -> Bool {
        noteRecordActivity()
        let key = clientId + " " + jti
        if let until = oauthService.usedClientAssertionIDs[key], until > clock.now { return false }
        oauthService.usedClientAssertionIDs[key] = expiresAt
        return true
    }

    /// The nonce a proof must carry, when `proof` lacks a current one (RFC 9449 §8); nil when it has it.
    func missingDPoPNonce(_ proof: VerifiedDPoPProof) -> String? {
        let now = clock.now
        return oauthService.dpopNonces.accepts(proof.nonce, now: now) ? nil : oauthService.dpopNonces.value(now: now)
    }

    /// The nonce clients should use next (sent on challenges).
    func currentDPoPNonce() -> String {
        oauthService.dpopNonces.value(now: clock.now)
    }

    /// Records a proof's `jti` for as long as the proof could still be accepted; false when it was seen before.
    func consumeDPoPProofID(_ proof: VerifiedDPoPProof) -> Bool {
        guard !hasSeenDPoPProofID(proof) else { return false }
        noteRecordActivity()
        oauthService.usedDPoPProofIDs[Self.replayKey(proof)] =
            max(proof.iat, clock.now) + VerifiedDPoPProof.maximumAge + VerifiedDPoPProof.clockSkew
        return true
    }

    /// Whether a proof's `jti` was recorded and could still be replayed; records nothing, so a request can be
    /// refused early for a replay and still record its `jti` only once its grant has succeeded.
    func hasSeenDPoPProofID(_ proof: VerifiedDPoPProof) -> Bool {
        oauthService.usedDPoPProofIDs[Self.replayKey(proof)].map { $0 > clock.now } ?? false
    }

    private static func replayKey(_ proof: VerifiedDPoPProof) -> String {
        proof.thumbprint + " " + proof.jti
    }

    /// Mints the claims of a client-credentials token and records it.
    func issueServiceAccessToken(
        clientId: String, scopes: [String], server: HostedAuthorizationServer, dpopThumbprint: String?
    ) -> ServiceAccessTokenClaims {
        noteRecordActivity()
        let now = clock.now
        let iat = Int(now.timeIntervalSince1970)
        let jti = "AT." + RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        oauthService.accessTokens[jti] = ServiceAccessTokenRecord(
            clientId: clientId, server: server, scopes: scopes,
            expiresAt: now + TimeInterval(Self.serviceAccessTokenLifetime), dpopThumbprint: dpopThumbprint)
        return ServiceAccessTokenClaims(
            jti: jti, iss: server.issuer(orgURL: orgURL), aud: server.audience(orgURL: orgURL), iat: iat,
            exp: iat + Self.serviceAccessTokenLifetime, cid: clientId, scp: scopes, sub: clientId,
            cnf: dpopThumbprint.map { TokenConfirmation(keyThumbprint: $0) })
    }

    /// Remembers the signed token by its value, so each call that presents it is matched to its record without
    /// verifying and decoding the JWT again: the string is the sandbox's own, so finding it is proof enough.
    func rememberServiceAccessToken(_ value: String, id jti: String) {
        oauthService.accessTokenIDs[value] = jti
    }

    /// The record of a token presented as it was issued, if it is unexpired on the sandbox clock and from `server`.
    func activeServiceAccessToken(value: String, server: HostedAuthorizationServer) -> ServiceAccessTokenRecord? {
        oauthService.accessTokenIDs[value].flatMap { activeServiceAccessToken(id: $0, server: server) }
    }

    /// The record of a signed client-credentials token, if it is known, unexpired on the sandbox clock and from
    /// `server`.
    func activeServiceAccessToken(_ claims: ServiceAccessTokenClaims, server: HostedAuthorizationServer) -> ServiceAccessTokenRecord? {
        activeServiceAccessToken(id: claims.jti, server: server).flatMap { $0.clientId == claims.cid ? $0 : nil }
    }

    private func activeServiceAccessToken(id jti: String, server: HostedAuthorizationServer) -> ServiceAccessTokenRecord? {
        guard let record = oauthService.accessTokens[jti], record.expiresAt > clock.now, record.server == server else { return nil }
        return record
    }

    /// The DPoP key a refresh token's family is bound to (nil when unbound or unknown).
    func dpopThumbprint(ofRefreshToken token: String) -> String? {
        oauth.refreshTokens[token].flatMap { oauth.tokenFamilies[$0.familyID]?.dpopThumbprint }
    }

    /// Binds the family of a just-issued access token to a DPoP key, the first time.
    func bindTokenFamily(accessTokenID jti: String, dpopThumbprint: String) {
        guard let familyID = oauth.accessTokens[jti]?.familyID, oauth.tokenFamilies[familyID]?.dpopThumbprint == nil else { return }
        oauth.tokenFamilies[familyID]?.dpopThumbprint = dpopThumbprint
    }
}
