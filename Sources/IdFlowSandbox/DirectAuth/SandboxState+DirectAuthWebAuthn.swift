import Foundation

/// Direct Authentication's passkey grants (direct-auth.md §6): the challenge a start issues, and the `/token` call
/// that answers it, checked by the same verifier and against the same stored passkeys as the Identity Engine's
/// (`WebAuthnAssertionVerifier`, `SandboxState+WebAuthn`) and under the same policy (`idx.webauthn`: user
/// verification, a custom RP ID; `webAuthnCeremony`), so a passkey enrolled there signs in here and its counter moves
/// forward whichever family it used.
extension SandboxState {
    /// `/primary-authenticate` for a passkey first factor: the ACTIVE user `loginHint` names, who must have a passkey;
    /// without a hint, a discoverable sign-in that names no credentials.
    func startPrimaryWebAuthn(
        loginHint: String?, clientId: String, server: HostedAuthorizationServer
    ) throws -> DirectAuthWebAuthnOptions {
        guard let loginHint else {
            return startWebAuthnChallenge(userId: nil, clientId: clientId, server: server, mfaToken: nil)
        }
        guard let user = findUser(login: loginHint), user.status == .active else { throw DirectAuthError.invalidLoginHint }
        guard !webAuthnCredentials(userId: user.id).isEmpty else { throw DirectAuthError.enrollmentRequired }
        return startWebAuthnChallenge(userId: user.id, clientId: clientId, server: server, mfaToken: nil)
    }

    /// `/primary-authenticate` with an `mfa_token` (the Swift SDK's second factor): the transaction's user, who must
    /// have a passkey the app may use.
    func startMFAWebAuthn(mfaToken: String, clientId: String, server: HostedAuthorizationServer) throws -> DirectAuthWebAuthnOptions {
        let mfa = try liveDirectAuthMFA(mfaToken, clientId: clientId, server: server)
        guard mfa.challengeTypes.contains(.mfaWebAuthn) else { throw DirectAuthError.enrollmentRequired }
        return startWebAuthnChallenge(userId: mfa.userId, clientId: clientId, server: server, mfaToken: mfaToken)
    }

    /// Issues a challenge of 32 random bytes, kept for `directAuth.expiresInSeconds`, and the options that carry it.
    func startWebAuthnChallenge(
        userId: String?, clientId: String, server: HostedAuthorizationServer, mfaToken: String?
    ) -> DirectAuthWebAuthnOptions {
        noteRecordActivity()
        var generator = SystemRandomNumberGenerator()
        let challenge = WebAuthnBase64.encodeURL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let lifetime = configuration.directAuth.expiresInSeconds
        directAuth.webAuthnChallenges[challenge] = DirectAuthWebAuthnRecord(
            challenge: challenge, userId: userId, clientId: clientId, server: server,
            expiresAt: clock.now + TimeInterval(lifetime), mfaToken: mfaToken)
        return DirectAuthWebAuthnOptions(
            challengeType: mfaToken == nil ? .webAuthn : .mfaWebAuthn, challenge: challenge, rpId: webAuthnPolicy.rpId,
            credentials: userId.map(webAuthnCredentials(userId:)) ?? [], userKnown: userId != nil,
            timeoutMilliseconds: lifetime * 1000, userVerification: webAuthnPolicy.userVerification, appId: orgURL)
    }

    /// The webauthn grant (`mfaToken` nil) and the mfa-webauthn grant: finds the pending challenge by the one in
    /// `clientDataJSON`, checks it belongs to this `mfa_token`, client and authorization server, and verifies the
    /// assertion against the passkeys of the challenge's user (or, for a discoverable sign-in, of the user
    /// `userHandle` names). A challenge answers one attempt, right or wrong. Errors are those of direct-auth.md §6.3.
    func directAuthWebAuthnGrant(
        _ answer: DirectAuthWebAuthnAnswer, mfaToken: String?, scopes: [String]?, clientId: String,
        server: HostedAuthorizationServer
    ) throws -> UnsignedTokens {
        let challenge = try answer.challenge()
        guard let record = directAuth.webAuthnChallenges[challenge], record.expiresAt > clock.now else {
            throw DirectAuthError.noPendingWebAuthnChallenge
        }
        guard record.mfaToken == mfaToken else { throw DirectAuthError.webAuthnNotAssociated }
        guard record.clientId == clientId else { throw DirectAuthError.clientChanged(clientId, original: record.clientId) }
        guard record.server == server else {
            throw DirectAuthError.serverChanged(server.directAuthId, original: record.server.directAuthId)
        }
        let mfa = try mfaToken.map { try liveDirectAuthMFA($0, clientId: clientId, server: server) }
        if let mfa { try Self.checkSameScopes(scopes, original: mfa.scopes) }
        guard let grantedScopes = mfa?.scopes ?? scopes else { throw OAuthErrorResponse.missingParameter("scope") }
        directAuth.webAuthnChallenges[challenge] = nil

        let verifier = WebAuthnAssertionVerifier(ceremony: webAuthnCeremony(challenge: record.challenge))
        let verified: WebAuthnAssertionVerifier.Verified
        do {
            verified = try verifier.verify(
                clientData: answer.clientDataJSON, authenticatorData: answer.authenticatorData, signature: answer.signature,
                credentials: try webAuthnCandidates(record, userHandle: answer.userHandle))
        } catch let failure as WebAuthnFailure {
            throw DirectAuthError(failure)
        }
        // A passkey deleted while its assertion was checked no longer signs anyone in.
        guard recordWebAuthnAssertion(verified) else { throw DirectAuthError(WebAuthnFailure.noCredentials) }
        if let mfaToken { directAuth.mfaTransactions[mfaToken] = nil }
        // RFC 8176: proof of possession of a key the authenticator holds.
        let amr = mfa == nil ? ["hwk"] : ["pwd", "hwk", "mfa"]
        return issueDirectAuthTokens(
            userId: verified.credential.userId, clientId: clientId, server: server, scopes: grantedScopes, amr: amr)
    }

    /// The passkeys an assertion is checked against: the named user's, when `userHandle` (if sent) names the same
    /// user; for a discoverable sign-in, those of the ACTIVE user `userHandle` names, or every ACTIVE user's when it
    /// is left out (the signature then says whose passkey it is). A `userHandle` naming no one, or someone else, finds
    /// none, which fails as Okta's "None of the WebAuthn authenticators…".
    private func webAuthnCandidates(_ record: DirectAuthWebAuthnRecord, userHandle: String?) throws -> [WebAuthnCredential] {
        let handleUser = userHandle.map(webAuthnUser(userHandle:))
        if let userId = record.userId {
            if let handleUser, handleUser?.id != userId { return [] }
            guard directory.users[userId]?.status == .active else { return [] }
            return webAuthnCredentials(userId: userId)
        }
        if let handleUser {
            guard let user = handleUser, user.status == .active else { return [] }
            return webAuthnCredentials(userId: user.id)
        }
        return idx.enrollments.keys.sorted().filter { directory.users[$0]?.status == .active }.flatMap(webAuthnCredentials(userId:))
    }

    /// The user a `userHandle` names: the Okta user id as text (the Swift SDK's form), or base64 of its UTF-8 bytes
    /// (the widget's); webauthn.md §2.
    private func webAuthnUser(userHandle: String) -> UserRecord? {
        if let user = directory.users[userHandle] { return user }
        guard let bytes = WebAuthnBase64.decode(userHandle), let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        return directory.users[text]
    }
}
