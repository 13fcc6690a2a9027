import Foundation

/// The classic Authn API's way back into an account (okta-core.md §F): changing an expired or expiring password,
/// and the forgotten-password and unlock recoveries (a link by e-mail or a code by SMS or voice call, then the
/// security question, then a new password or the unlocked account).
extension SandboxState {
    /// `POST /api/v1/authn/credentials/change_password` in PASSWORD_EXPIRED or PASSWORD_WARN (else E0000079): the old
    /// password again (E0000014 when wrong), a new one that meets the policy (E0000080; the transaction stays for
    /// another try), then SUCCESS with a session token and the user ACTIVE.
    func changePassword(stateToken: String, oldPassword: String, newPassword: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard [.passwordExpired, .passwordWarn].contains(transaction.status), let user = directory.users[transaction.userId] else {
            throw OktaErrorResponse.wrongAuthnState
        }
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        authn.transactions[stateToken] = transaction
        guard let stored = user.password, stored.matches(oldPassword) else { throw OktaErrorResponse.wrongOldPassword }
        try checkNewPassword(newPassword, for: user)
        completePasswordChange(userId: user.id, newPassword: newPassword)
        transaction.status = .success
        authn.transactions[stateToken] = transaction
        return succeed(userId: user.id)
    }

    /// `POST /api/v1/authn/skip` in PASSWORD_WARN (else E0000079): signed in with the old password.
    func skipPasswordWarning(stateToken: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .passwordWarn, directory.users[transaction.userId] != nil else {
            throw OktaErrorResponse.wrongAuthnState
        }
        transaction.status = .success
        authn.transactions[stateToken] = transaction
        return succeed(userId: transaction.userId)
    }

    /// `POST /api/v1/authn/recovery/password` and `recovery/unlock` `{"username","factorType"}`: EMAIL mails a link
    /// (RECOVERY_CHALLENGE without a state token), SMS and CALL send a code to the phone enrolled through the Identity
    /// Engine (RECOVERY_CHALLENGE with one). An unknown user, one whose status allows no such recovery (a password
    /// reset needs ACTIVE, PASSWORD_EXPIRED or LOCKED_OUT; an unlock LOCKED_OUT) and one without a phone get the same
    /// answer and nothing is sent, as Okta tells a public client nothing about who exists. A factor the policy does
    /// not allow to recover, or an unlock while self-service unlock is off, is E0000006.
    func startRecovery(username: String, factor: RecoveryFactor, type: RecoveryType, relayState: String?) throws -> AuthnOutcome {
        if type == .unlock, !configuration.passwordPolicy.lockout.selfServiceUnlock { throw OktaErrorResponse.recoveryNotAllowed }
        guard recoveryAllows(factor) else { throw OktaErrorResponse.recoveryNotAllowed }
        let eligible: Set<UserStatus> = type == .unlock ? [.lockedOut] : [.active, .passwordExpired, .lockedOut]
        let user = findUser(login: username).flatMap { eligible.contains($0.status) ? $0 : nil }
        if factor == .email {
            if let user {
                let token = issueRecoveryToken(userId: user.id, type: type)
                mailRecoveryLink(to: user, type: type, link: recoveryLink(type: type, token: token), token: token)
            }
            return .recoveryChallenge(nil, factor, type, relayState: relayState)
        }
        noteRecordActivity()
        var transaction = AuthnTransactionRecord(
            stateToken: RandomToken.stateToken(), userId: user?.id ?? "", status: .recoveryChallenge, recoveryType: type,
            expiresAt: clock.now + Self.stateTokenLifetime, relayState: relayState)
        transaction.recoveryFactor = factor
        transaction.recoveryCode = user.flatMap { sendRecoveryCode(userId: $0.id, factor: factor) }
        authn.transactions[transaction.stateToken] = transaction
        return .recoveryChallenge(transaction, factor, type, relayState: relayState)
    }

    /// `POST /api/v1/authn/recovery/factors/{SMS|CALL}/verify {"stateToken","passCode"}` in RECOVERY_CHALLENGE: the
    /// code sent last, within its lifetime, proves the user (E0000068 otherwise, counted: `failedAttempt`).
    func verifyRecoveryCode(stateToken: String, passCode: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .recoveryChallenge else { throw OktaErrorResponse.wrongAuthnState }
        guard !codeAttemptsExhausted(userId: transaction.userId), let code = transaction.recoveryCode, accepts(passCode, for: code),
            let user = directory.users[transaction.userId]
        else { throw failedAttempt(transaction, OktaErrorResponse.invalidPasscode) }
        clearCodeFailures(userId: user.id)
        transaction.recoveryCode = nil
        return recoveryProven(&transaction, user: user)
    }

    /// A wrong recovery code or answer: counted for the transaction and the user, the transaction's expiry left as
    /// it was (a wrong guess must not keep it alive), and the transaction ended once the limit is reached
    /// (`SandboxState+CodeAttempts.swift`), after which its state token is E0000011 like any dead one. Returns
    /// `error`, the answer every failure gets.
    private func failedAttempt(_ transaction: AuthnTransactionRecord, _ error: OktaErrorResponse) -> OktaErrorResponse {
        if countCodeFailure(userId: transaction.userId, transactionFailures: transaction.codeFailures) {
            authn.transactions[transaction.stateToken] = nil
        } else {
            authn.transactions[transaction.stateToken]?.codeFailures += 1
        }
        return error
    }

    /// `POST /api/v1/authn/recovery/factors/{SMS|CALL}/resend {"stateToken"}`: a new code (by `factor`, so a user may
    /// ask for a call after a text); the old one stops working. RECOVERY_CHALLENGE again.
    func resendRecoveryCode(stateToken: String, factor: RecoveryFactor) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .recoveryChallenge, factor != .email else { throw OktaErrorResponse.wrongAuthnState }
        guard recoveryAllows(factor) else { throw OktaErrorResponse.recoveryNotAllowed }
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        transaction.recoveryFactor = factor
        if directory.users[transaction.userId] != nil {
            transaction.recoveryCode = sendRecoveryCode(userId: transaction.userId, factor: factor)
        }
        authn.transactions[stateToken] = transaction
        return .recoveryChallenge(transaction, factor, transaction.recoveryType ?? .password, relayState: transaction.relayState)
    }

    /// `POST /api/v1/authn/recovery/token {"recoveryToken"}`: the token from a recovery e-mail (or an admin's reset
    /// link) proves the user; a used, expired or unknown one is E0000011.
    func redeemRecoveryToken(_ token: String) throws -> AuthnOutcome {
        guard let grant = takeRecoveryGrant(token), grant.type != .accountActivation, let user = directory.users[grant.userId],
            Self.recoverableStatuses.contains(user.status)
        else { throw OktaErrorResponse.invalidToken }
        noteRecordActivity()
        var transaction = AuthnTransactionRecord(
            stateToken: RandomToken.stateToken(), userId: user.id, status: .recoveryChallenge, recoveryType: grant.type,
            expiresAt: clock.now + Self.stateTokenLifetime)
        return recoveryProven(&transaction, user: user)
    }

    /// `POST /api/v1/authn {"token"}` with a password-reset token (`reset_password`, `forgot_password`, a recovery
    /// e-mail): straight to PASSWORD_RESET (`recoveryType: PASSWORD`), as an activation token leads to it; nil when
    /// the token is no such token, so that the caller tries it as an activation token.
    func redeemPasswordResetToken(_ token: String) throws -> AuthnOutcome? {
        guard let pending = recovery.grants[token], pending.type == .password else { return nil }
        guard let grant = takeRecoveryGrant(token), let user = directory.users[grant.userId], Self.recoverableStatuses.contains(user.status)
        else { throw OktaErrorResponse.authenticationFailed }
        noteRecordActivity()
        let transaction = AuthnTransactionRecord(
            stateToken: RandomToken.stateToken(), userId: user.id, status: .passwordReset, recoveryType: .password,
            expiresAt: clock.now + Self.stateTokenLifetime)
        authn.transactions[transaction.stateToken] = transaction
        return .passwordReset(transaction, user)
    }

    /// `POST /api/v1/authn/recovery/answer {"stateToken","answer"}` in RECOVERY: the security question's answer
    /// (E0000087 when wrong, counted: `failedAttempt`) leads to PASSWORD_RESET, or for an unlock to SUCCESS.
    func answerRecoveryQuestion(stateToken: String, answer: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .recovery, let user = directory.users[transaction.userId] else {
            throw OktaErrorResponse.wrongAuthnState
        }
        guard !codeAttemptsExhausted(userId: user.id), let question = idx.enrollments[user.id]?.securityQuestion,
            question.answer.matches(Self.normalizedAnswer(answer))
        else { throw failedAttempt(transaction, OktaErrorResponse.wrongRecoveryAnswer) }
        clearCodeFailures(userId: user.id)
        return pastRecoveryQuestion(&transaction, user: user)
    }

    /// Statuses whose recovery token still works when redeemed (a suspended or deactivated user's does not).
    private static let recoverableStatuses: Set<UserStatus> = [.active, .passwordExpired, .lockedOut, .recovery]

    /// After the factor: RECOVERY with the user's security question when one was enrolled through the Identity Engine.
    /// A user without one goes straight past it: Okta requires a recovery question for Authn recovery, but the
    /// sandbox's users enroll questions only through the Identity Engine, so this is the sandbox's choice.
    private func recoveryProven(_ transaction: inout AuthnTransactionRecord, user: UserRecord) -> AuthnOutcome {
        guard let question = idx.enrollments[user.id]?.securityQuestion else { return pastRecoveryQuestion(&transaction, user: user) }
        transaction.status = .recovery
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        authn.transactions[transaction.stateToken] = transaction
        return .recovery(transaction, user, question: question.question)
    }

    /// PASSWORD_RESET for a password recovery; for an unlock, the user ACTIVE again and SUCCESS without a session.
    private func pastRecoveryQuestion(_ transaction: inout AuthnTransactionRecord, user: UserRecord) -> AuthnOutcome {
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        guard transaction.recoveryType == .unlock else {
            transaction.status = .passwordReset
            authn.transactions[transaction.stateToken] = transaction
            return .passwordReset(transaction, user)
        }
        transaction.status = .success
        authn.transactions[transaction.stateToken] = transaction
        return .unlocked(unlockUser(userId: user.id))
    }
}
