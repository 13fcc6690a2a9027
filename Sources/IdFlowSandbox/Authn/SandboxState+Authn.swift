import Foundation

/// An Authn transaction the sandbox can be in.
enum AuthnStatus: String, Sendable {
    case passwordReset = "PASSWORD_RESET"
    case passwordExpired = "PASSWORD_EXPIRED"
    case passwordWarn = "PASSWORD_WARN"
    case recoveryChallenge = "RECOVERY_CHALLENGE"
    case recovery = "RECOVERY"
    case mfaRequired = "MFA_REQUIRED"
    case mfaEnroll = "MFA_ENROLL"
    case mfaChallenge = "MFA_CHALLENGE"
    case success = "SUCCESS"
}

/// A stateful Authn transaction as the server keeps it, addressed by its state token (the client's
/// `AuthnTransaction` is the answer as the client reads it).
struct AuthnTransactionRecord: Sendable {
    let stateToken: String
    let userId: String
    var status: AuthnStatus
    /// `ACCOUNT_ACTIVATION` for the activation-token flow, `PASSWORD` or `UNLOCK` for a recovery.
    let recoveryType: RecoveryType?
    /// Slides forward on every use; clients must read `expiresAt` rather than assume a lifetime.
    var expiresAt: Date
    /// In MFA_CHALLENGE: the push factor (method enrollment id) being verified.
    var factorId: String?
    /// In MFA_CHALLENGE: the push challenge sent, until its result has been reported.
    var pushTransactionId: String?
    /// Echoed on every state when the sign-in or recovery started with one.
    var relayState: String?
    /// What the password check found that must be dealt with after MFA (expired, or about to expire).
    var passwordStep: PasswordStep?
    /// In RECOVERY_CHALLENGE: how the code went (SMS or CALL) and the one valid code; no code for a recovery that
    /// cannot succeed (unknown user, no phone), which answers like any other so that it tells nothing.
    var recoveryFactor: RecoveryFactor?
    var recoveryCode: IDXCode?
    /// Wrong recovery codes and answers given in this transaction (`SandboxState+CodeAttempts.swift`).
    var codeFailures = 0
}

/// A password that needs attention once the user is otherwise signed in (okta-core.md §F1).
enum PasswordStep: Sendable {
    /// PASSWORD_EXPIRED: only a change of password lets the user in.
    case expired
    /// PASSWORD_WARN: the password expires in this many days; the user may change it or skip.
    case warn(daysToExpiry: Int)
}

/// Who a session token authenticated, and when; what `/authorize?sessionToken=` needs.
public struct SessionGrant: Sendable, Equatable {
    /// The authenticated user's id (`00u…`).
    public let userId: String
    /// When the user authenticated (the ID token's `auth_time`).
    public let authTime: Date
}

struct SessionTokenRecord: Sendable {
    let grant: SessionGrant
    let expiresAt: Date
}

/// The result of an Authn call, before it is rendered.
enum AuthnOutcome: Sendable {
    case passwordReset(AuthnTransactionRecord, UserRecord)
    case success(sessionToken: String, expiresAt: Date, user: UserRecord)
    case mfaRequired(AuthnTransactionRecord, UserRecord, [PushFactor])
    case mfaEnroll(AuthnTransactionRecord, UserRecord)
    case mfaChallenge(AuthnTransactionRecord, UserRecord, PushFactor, factorResult: String)
    case passwordExpired(AuthnTransactionRecord, UserRecord)
    case passwordWarn(AuthnTransactionRecord, UserRecord, daysToExpiry: Int)
    /// A locked user's sign-in when the policy shows lockout; `unlock` says whether self-service unlock is offered.
    case lockedOut(unlock: Bool)
    /// A code (SMS/CALL, with its transaction) or a link (EMAIL, no transaction) is on its way.
    case recoveryChallenge(AuthnTransactionRecord?, RecoveryFactor, RecoveryType, relayState: String?)
    /// The factor is proven; the user's security question comes next.
    case recovery(AuthnTransactionRecord, UserRecord, question: String)
    /// The end of a self-service unlock: SUCCESS without a session.
    case unlocked(UserRecord)
}

/// The classic Authn API (okta-core.md §C): activation-token redemption, primary authentication,
/// password reset and the single-use session tokens that `/authorize` consumes.
extension SandboxState {
    /// State tokens expire 5 minutes after their last use.
    static let stateTokenLifetime: TimeInterval = 5 * 60
    /// Session tokens are single-use and live 5 minutes.
    static let sessionTokenLifetime: TimeInterval = 5 * 60

    /// `POST /api/v1/authn {"token"}`: redeems an activation token (single-use, 7 days).
    /// A user without a password gets a PASSWORD_RESET transaction; one with a password, a session.
    func redeemActivationToken(_ token: String) throws -> AuthnOutcome {
        noteRecordActivity()
        let now = clock.now
        guard let grant = directory.activationGrants[token] else { throw OktaErrorResponse.authenticationFailed }
        directory.activationGrants[token] = nil
        guard grant.expiresAt > now, var user = directory.users[grant.userId] else {
            throw OktaErrorResponse.authenticationFailed
        }
        user.activationToken = nil
        directory.users[user.id] = user
        if user.password == nil, user.status == .provisioned || user.status == .recovery {
            let transaction = AuthnTransactionRecord(
                stateToken: RandomToken.stateToken(), userId: user.id, status: .passwordReset,
                recoveryType: .accountActivation, expiresAt: now + Self.stateTokenLifetime)
            authn.transactions[transaction.stateToken] = transaction
            return .passwordReset(transaction, user)
        }
        guard user.status == .active, user.password != nil else { throw OktaErrorResponse.authenticationFailed }
        return succeed(userId: user.id)
    }

    /// `POST /api/v1/authn {"username","password"}`: an ACTIVE user with that password succeeds, after push MFA when
    /// `mfaPolicy` asks for it (`SandboxState+AuthnPush.swift`) and then PASSWORD_EXPIRED, or PASSWORD_WARN when
    /// `warnBeforePasswordExpired` and the password expires within the policy's warning window. A locked user gets
    /// LOCKED_OUT only when the policy shows lockout failures; every other failure is the same E0000004, so the API
    /// does not reveal which logins exist.
    func authenticate(
        username: String, password: String, warnBeforePasswordExpired: Bool = false, relayState: String? = nil
    ) throws -> AuthnOutcome {
        let step: PasswordStep?
        let user: UserRecord
        switch checkPassword(username: username, password: password) {
        case .refused:
            throw OktaErrorResponse.authenticationFailed
        case .lockedOut:
            let lockout = configuration.passwordPolicy.lockout
            guard lockout.showLockoutFailures else { throw OktaErrorResponse.authenticationFailed }
            return .lockedOut(unlock: lockout.selfServiceUnlock)
        case .expired(let expired):
            (user, step) = (expired, .expired)
        case .accepted(let accepted, let daysToExpiry):
            user = accepted
            step = warnBeforePasswordExpired ? daysToExpiry.map { .warn(daysToExpiry: $0) } : nil
        }
        if let mfa = secondFactorStep(for: user, passwordStep: step, relayState: relayState) { return mfa }
        var transaction = AuthnTransactionRecord(
            stateToken: RandomToken.stateToken(), userId: user.id, status: .success, recoveryType: nil,
            expiresAt: clock.now + Self.stateTokenLifetime, relayState: relayState, passwordStep: step)
        return finishPrimaryAuthentication(&transaction)
    }

    /// After the password (and MFA, if any): PASSWORD_EXPIRED or PASSWORD_WARN when the password needs attention,
    /// else SUCCESS. The transaction is stored only when it goes on.
    func finishPrimaryAuthentication(_ transaction: inout AuthnTransactionRecord) -> AuthnOutcome {
        guard let step = transaction.passwordStep, let user = directory.users[transaction.userId] else {
            transaction.status = .success
            if authn.transactions[transaction.stateToken] != nil { authn.transactions[transaction.stateToken] = transaction }
            return succeed(userId: transaction.userId)
        }
        noteRecordActivity()
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        switch step {
        case .expired:
            transaction.status = .passwordExpired
            authn.transactions[transaction.stateToken] = transaction
            return .passwordExpired(transaction, user)
        case .warn(let days):
            transaction.status = .passwordWarn
            authn.transactions[transaction.stateToken] = transaction
            return .passwordWarn(transaction, user, daysToExpiry: days)
        }
    }

    /// The ACTIVE user with this login and a password that has not expired, or nil (`checkPassword`, which counts
    /// a failure toward the lockout).
    func verifiedUser(username: String, password: String) -> UserRecord? {
        guard case .accepted(let user, _) = checkPassword(username: username, password: password) else { return nil }
        return user
    }

    /// `POST /api/v1/authn {"stateToken"}`: the transaction as it stands (extending its life). A push challenge in
    /// progress is read by polling its verify link instead.
    func transactionState(stateToken: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        let user = directory.users[transaction.userId]
        let outcome: AuthnOutcome
        switch (transaction.status, user) {
        case (.passwordReset, let user?): outcome = .passwordReset(transaction, user)
        case (.passwordExpired, let user?): outcome = .passwordExpired(transaction, user)
        case (.passwordWarn, let user?):
            guard case .warn(let days) = transaction.passwordStep else { throw OktaErrorResponse.wrongAuthnState }
            outcome = .passwordWarn(transaction, user, daysToExpiry: days)
        case (.mfaRequired, let user?): outcome = .mfaRequired(transaction, user, pushFactors(userId: user.id))
        case (.recoveryChallenge, _):
            outcome = .recoveryChallenge(
                transaction, transaction.recoveryFactor ?? .sms, transaction.recoveryType ?? .password, relayState: transaction.relayState)
        case (.recovery, let user?):
            guard let question = idx.enrollments[user.id]?.securityQuestion?.question else { throw OktaErrorResponse.wrongAuthnState }
            outcome = .recovery(transaction, user, question: question)
        default: throw OktaErrorResponse.wrongAuthnState
        }
        authn.transactions[stateToken] = transaction
        return outcome
    }

    /// `POST /api/v1/authn/credentials/reset_password` in PASSWORD_RESET (an activation or a recovery): the new
    /// password (E0000080 when it breaks the policy, the transaction kept for another try), the user ACTIVE, and
    /// SUCCESS with a session token.
    func resetPassword(stateToken: String, newPassword: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .passwordReset, let user = directory.users[transaction.userId] else {
            throw OktaErrorResponse.wrongAuthnState
        }
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        authn.transactions[stateToken] = transaction
        try checkNewPassword(newPassword, for: user)
        completePasswordChange(userId: user.id, newPassword: newPassword)
        // The token stays known in SUCCESS so that reusing it is E0000079, not "unknown token".
        transaction.status = .success
        authn.transactions[stateToken] = transaction
        return succeed(userId: user.id)
    }

    /// `POST /api/v1/authn/cancel`: ends the transaction; the state token is dead afterwards.
    func cancelTransaction(stateToken: String) throws {
        if let tx = try liveTransaction(stateToken).pushTransactionId { closeWaitingChallenge(tx) }
        authn.transactions[stateToken] = nil
    }

    /// Redeems a session token from Authn: single-use, 5 minutes, and only for a user still ACTIVE.
    public func consumeSessionToken(_ token: String) -> SessionGrant? {
        guard let record = authn.sessionTokens.removeValue(forKey: token), record.expiresAt > clock.now,
            directory.users[record.grant.userId]?.status == .active
        else { return nil }
        return record.grant
    }

    /// Forgets every Authn transaction and session token of a user (deactivate, suspend).
    func endSessions(userId: String) {
        authn.transactions = authn.transactions.filter { $0.value.userId != userId }
        authn.sessionTokens = authn.sessionTokens.filter { $0.value.grant.userId != userId }
        endOAuthSessions(userId: userId)
    }

    func liveTransaction(_ stateToken: String) throws -> AuthnTransactionRecord {
        guard let transaction = authn.transactions[stateToken] else { throw OktaErrorResponse.invalidToken }
        guard transaction.expiresAt > clock.now else {
            authn.transactions[stateToken] = nil
            throw OktaErrorResponse.invalidToken
        }
        return transaction
    }

    func succeed(userId: String) -> AuthnOutcome {
        noteRecordActivity()
        let now = clock.now
        directory.users[userId]!.lastLogin = now
        let token = RandomToken.sessionToken()
        let expiresAt = now + Self.sessionTokenLifetime
        authn.sessionTokens[token] = SessionTokenRecord(grant: SessionGrant(userId: userId, authTime: now), expiresAt: expiresAt)
        return .success(sessionToken: token, expiresAt: expiresAt, user: directory.users[userId]!)
    }
}
