import Foundation

/// The token-endpoint grants of Direct Authentication (direct-auth.md §§2–5): `password` (with `mfa_required` when the
/// user must do MFA, by `mfaPolicy`), `otp`, `oob` polling, and the second factors `mfa-otp` and `mfa-oob`. Tokens are
/// minted by `makeGrant` like every other grant's, with an `amr` naming the factors used (RFC 8176 values).
extension SandboxState {
    /// How long an `mfa_token` lives: as long as an `oob_code`.
    var directAuthMFALifetime: TimeInterval { TimeInterval(configuration.directAuth.expiresInSeconds) }

    /// `grant_type=password` under the password policy (`checkPassword`, the same check as every other sign-in): a wrong
    /// password or a locked account is `invalid_grant`, an expired password a policy denial; a user who must do MFA
    /// gets 403 `mfa_required` with an `mfa_token` for `/challenge` and the `mfa-*` grants.
    func directAuthPasswordGrant(
        username: String, password: String, scopes: [String], clientId: String, server: HostedAuthorizationServer,
        grantTypesSupported: [String]?
    ) throws -> UnsignedTokens {
        let user: UserRecord
        switch checkPassword(username: username, password: password) {
        case .refused, .lockedOut: throw DirectAuthError.invalidCredentials
        case .expired: throw DirectAuthError.policyDenied
        case .accepted(let accepted, _): user = accepted
        }
        let factors = directAuthSecondFactors(userId: user.id)
        switch configuration.mfaPolicy {
        case .never: return issueDirectAuthTokens(userId: user.id, clientId: clientId, server: server, scopes: scopes, amr: ["pwd"])
        case .whenEnrolled where factors.isEmpty:
            return issueDirectAuthTokens(userId: user.id, clientId: clientId, server: server, scopes: scopes, amr: ["pwd"])
        case .always where factors.isEmpty: throw DirectAuthError.enrollmentRequired
        case .whenEnrolled, .always: break
        }
        let types = factors.filter(configuration.directAuthGrants(of: clientId).contains)
        guard !types.isEmpty else { throw DirectAuthError.promptedGrantDisabled }
        if let grantTypesSupported, !types.contains(where: { grantTypesSupported.contains($0.rawValue) }) {
            throw DirectAuthError.grantTypesNotSufficient(grantTypesSupported.joined(separator: " "))
        }
        noteRecordActivity()
        let mfaToken = RandomToken.string(count: 20)
        directAuth.mfaTransactions[mfaToken] = DirectAuthMFARecord(
            mfaToken: mfaToken, userId: user.id, clientId: clientId, server: server, scopes: scopes,
            expiresAt: clock.now + directAuthMFALifetime, challengeTypes: types)
        throw DirectAuthError.mfaRequired(mfaToken: mfaToken, challengeTypes: types)
    }

    /// `grant_type=urn:okta:params:oauth:grant-type:otp`: `login_hint` and a TOTP code of the user's authenticator app
    /// or Okta Verify, never one of a time step already used.
    func directAuthOTPGrant(
        loginHint: String, otp: String, scopes: [String], clientId: String, server: HostedAuthorizationServer,
        intent: DirectAuthIntent? = nil
    ) throws -> UnsignedTokens {
        guard let user = findUser(login: loginHint), Self.directAuthStatuses(intent).contains(user.status) else {
            throw DirectAuthError.invalidLoginHint
        }
        // A code of Okta Verify's (Google Authenticator never recovers a password: `RecoveryPolicy.recoverable`).
        if intent == .recovery { try requireRecoveryAuthenticator(.oktaVerify) }
        switch verifyDirectAuthOTP(otp, userId: user.id, transactionFailures: 0) {
        case .accepted: return issueDirectAuthTokens(userId: user.id, clientId: clientId, server: server, scopes: scopes, amr: ["otp"])
        case .notEnrolled: throw DirectAuthError.enrollmentRequired
        case .refused: throw DirectAuthError.invalidOTP
        }
    }

    /// `grant_type=http://auth0.com/oauth/grant-type/mfa-otp`: the second factor of an `mfa_token`. Too many wrong codes
    /// (`passwordPolicy.lockout.maxCodeAttempts`) end the transaction.
    func directAuthMFAOTPGrant(
        mfaToken: String, otp: String, scopes: [String]?, clientId: String, server: HostedAuthorizationServer
    ) throws -> UnsignedTokens {
        var mfa = try liveDirectAuthMFA(mfaToken, clientId: clientId, server: server)
        try Self.checkSameScopes(scopes, original: mfa.scopes)
        switch verifyDirectAuthOTP(otp, userId: mfa.userId, transactionFailures: mfa.codeFailures) {
        case .accepted:
            directAuth.mfaTransactions[mfaToken] = nil
            return issueDirectAuthTokens(
                userId: mfa.userId, clientId: clientId, server: server, scopes: mfa.scopes, amr: ["pwd", "otp", "mfa"])
        case .notEnrolled:
            throw DirectAuthError.enrollmentRequired
        case .refused(let endsTransaction):
            mfa.codeFailures += 1
            directAuth.mfaTransactions[mfaToken] = endsTransaction ? nil : mfa
            throw DirectAuthError.invalidOTP
        }
    }

    /// The `oob` and `mfa-oob` grants: a poll of a push (`authorization_pending` until answered, `slow_down` when sooner
    /// than `interval` by the sandbox clock, the rejection, or the tokens) or the code of an SMS or voice call. `mfaToken`
    /// is nil for the primary grant; the OOB must belong to it either way.
    func directAuthOOBGrant(
        oobCode: String, mfaToken: String?, bindingCode: String?, scopes: [String]?, clientId: String,
        server: HostedAuthorizationServer, intent: DirectAuthIntent? = nil
    ) throws -> UnsignedTokens {
        guard var record = directAuth.oobTransactions[oobCode], record.expiresAt > clock.now else {
            throw DirectAuthError.expired("oob_code")
        }
        guard record.clientId == clientId else { throw DirectAuthError.clientChanged(clientId, original: record.clientId) }
        guard record.server == server else {
            throw DirectAuthError.serverChanged(server.directAuthId, original: record.server.directAuthId)
        }
        guard record.mfaToken == mfaToken else { throw DirectAuthError.notAssociated }
        if intent == .recovery { try requireRecoveryAuthenticator(record.channel.recoveryAuthenticator) }
        let mfa = try mfaToken.map { try liveDirectAuthMFA($0, clientId: clientId, server: server) }
        if let mfa { try Self.checkSameScopes(scopes, original: mfa.scopes) }
        guard let grantedScopes = mfa?.scopes ?? scopes else { throw OAuthErrorResponse.missingParameter("scope") }
        switch record.channel {
        case .push: try answerPushPoll(&record)
        case .sms, .voice: try checkBindingCode(&record, bindingCode)
        }
        directAuth.oobTransactions[oobCode] = nil
        if let mfaToken { directAuth.mfaTransactions[mfaToken] = nil }
        let amr = mfa == nil ? [record.channel.amr] : ["pwd", record.channel.amr, "mfa"]
        return issueDirectAuthTokens(userId: record.userId, clientId: clientId, server: server, scopes: grantedScopes, amr: amr)
    }

    /// A push poll: returns once a challenge is approved (withdrawing the others), else throws what the client reads.
    private func answerPushPoll(_ record: inout DirectAuthOOBRecord) throws {
        let now = clock.now
        let previous = record.lastPolledAt
        record.lastPolledAt = now
        directAuth.oobTransactions[record.oobCode] = record
        if let previous, now.timeIntervalSince(previous) + Self.pollingTolerance < record.interval {
            directAuth.slowDowns += 1
            throw DirectAuthError.slowDown
        }
        let statuses = record.pushTransactionIds.map { push.challenges[$0]?.currentStatus(at: now) ?? .expired }
        if statuses.contains(.approved) || statuses.contains(.denied) {
            record.pushTransactionIds.forEach(closeWaitingChallenge)
        }
        if statuses.contains(.approved) { return }
        if statuses.contains(.denied) { throw DirectAuthError.oobRejected }
        if statuses.allSatisfy({ $0 == .expired }) { throw DirectAuthError.expired("oob_code") }
        throw DirectAuthError.authorizationPending
    }

    /// The code of an SMS or voice call (`binding_code`): a wrong one counts toward `maxCodeAttempts`, and the attempt
    /// that reaches it ends the transaction.
    private func checkBindingCode(_ record: inout DirectAuthOOBRecord, _ given: String?) throws {
        if !codeAttemptsExhausted(userId: record.userId), let code = record.promptCode, let given, ConstantTime.equals(given, code) {
            clearCodeFailures(userId: record.userId)
            return
        }
        let ends = countCodeFailure(userId: record.userId, transactionFailures: record.codeFailures)
        record.codeFailures += 1
        directAuth.oobTransactions[record.oobCode] = ends ? nil : record
        throw DirectAuthError.invalidOTP
    }

    /// What checking a Direct Authentication OTP found.
    enum DirectAuthOTPOutcome: Equatable {
        case accepted
        /// The user has no TOTP authenticator.
        case notEnrolled
        /// Wrong, reused, or the user is out of tries; `endsTransaction` when this failure reached the limit.
        case refused(endsTransaction: Bool)
    }

    /// Checks a TOTP code against the user's authenticator app, then Okta Verify (`useTOTP`, which records the step so
    /// no code is accepted twice), counting a failure toward `maxCodeAttempts`.
    func verifyDirectAuthOTP(_ code: String, userId: String, transactionFailures: Int) -> DirectAuthOTPOutcome {
        let hasApp = idx.enrollments[userId]?.googleOTP != nil
        let hasOktaVerify = !activeEnrollments(userId: userId).isEmpty
        guard hasApp || hasOktaVerify else { return .notEnrolled }
        if !codeAttemptsExhausted(userId: userId) {
            if (hasApp && Self.isAccepted(useTOTP(code, of: .googleOTP, userId: userId)))
                || (hasOktaVerify && Self.isAccepted(useTOTP(code, of: .oktaVerify, userId: userId)))
            {
                clearCodeFailures(userId: userId)
                return .accepted
            }
        }
        return .refused(endsTransaction: countCodeFailure(userId: userId, transactionFailures: transactionFailures))
    }

    private static func isAccepted(_ check: TOTPCheck) -> Bool {
        if case .accepted = check { return true }
        return false
    }

    /// Tokens for a user who passed Direct Authentication, in a new token family, the ID token's `amr` naming the factors.
    func issueDirectAuthTokens(
        userId: String, clientId: String, server: HostedAuthorizationServer, scopes: [String], amr: [String]
    ) -> UnsignedTokens {
        noteRecordActivity()
        let now = clock.now
        directory.users[userId]?.lastLogin = now
        let family = TokenFamily(
            id: RandomToken.string(count: 20), server: server, clientId: clientId, userId: userId, scopes: scopes, authTime: now)
        oauth.tokenFamilies[family.id] = family
        var grant = makeGrant(family: family, scopes: scopes, nonce: nil)
        grant.idToken?.amr = amr
        return grant
    }

    // MARK: The recovery intent (direct-auth.md §9.1)

    /// Who may answer a Direct Authentication request: ACTIVE users sign in; a recovery is also for those a new
    /// password leads back to ACTIVE (a locked-out user, an expired password, a reset under way).
    static func directAuthStatuses(_ intent: DirectAuthIntent?) -> Set<UserStatus> {
        intent == .recovery ? statusesANewPasswordEnds : [.active]
    }

    /// 403 unless the password policy lets `authenticator` recover a password (`passwordPolicy.recovery.authenticators`).
    func requireRecoveryAuthenticator(_ authenticator: IDXPolicy.Authenticator) throws {
        guard configuration.passwordPolicy.recovery.authenticators.contains(authenticator) else {
            throw DirectAuthError.recoveryAuthenticatorNotEnabled
        }
    }

    /// `/primary-authenticate` (`/oob-authenticate`) of a recovery: the channel's authenticator must recover passwords,
    /// and a locked-out user, or one whose password expired, may start it.
    func startRecoveryOOB(
        loginHint: String, channel: DirectAuthChannel, clientId: String, server: HostedAuthorizationServer
    ) throws -> DirectAuthOOBRecord {
        guard let user = findUser(login: loginHint), Self.directAuthStatuses(.recovery).contains(user.status) else {
            throw DirectAuthError.invalidLoginHint
        }
        try requireRecoveryAuthenticator(channel.recoveryAuthenticator)
        return try startOOB(userId: user.id, channel: channel, clientId: clientId, server: server, mfaToken: nil)
    }

    /// A later request of a transaction must ask for the scopes of the first (or none, meaning the same).
    static func checkSameScopes(_ given: [String]?, original: [String]) throws {
        guard let given, Set(given) != Set(original) else { return }
        throw DirectAuthError.scopesChanged(given, original: original)
    }
}

extension DirectAuthChannel {
    /// The password policy's recovery authenticator behind a channel: Okta Verify's push, or the phone.
    var recoveryAuthenticator: IDXPolicy.Authenticator { self == .push ? .oktaVerify : .phone }
}
