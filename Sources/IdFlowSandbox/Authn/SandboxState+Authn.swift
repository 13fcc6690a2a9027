import Foundation

/// An Authn transaction the sandbox can be in.
enum AuthnStatus: String, Sendable {
    case passwordReset = "PASSWORD_RESET"
    case mfaRequired = "MFA_REQUIRED"
    case mfaEnroll = "MFA_ENROLL"
    case mfaChallenge = "MFA_CHALLENGE"
    case success = "SUCCESS"
}

/// A stateful Authn transaction, addressed by its state token.
struct AuthnTransaction: Sendable {
    let stateToken: String
    let userId: String
    var status: AuthnStatus
    /// `ACCOUNT_ACTIVATION` for the activation-token flow.
    let recoveryType: String?
    /// Slides forward on every use; clients must read `expiresAt` rather than assume a lifetime.
    var expiresAt: Date
    /// In MFA_CHALLENGE: the push factor (method enrollment id) being verified.
    var factorId: String?
    /// In MFA_CHALLENGE: the push challenge sent, until its result has been reported.
    var pushTransactionId: String?
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
    case passwordReset(AuthnTransaction, UserRecord)
    case success(sessionToken: String, expiresAt: Date, user: UserRecord)
    case mfaRequired(AuthnTransaction, UserRecord, [PushFactor])
    case mfaEnroll(AuthnTransaction, UserRecord)
    case mfaChallenge(AuthnTransaction, UserRecord, PushFactor, factorResult: String)
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
        guard let grant = activationGrants[token] else { throw OktaErrorResponse.authenticationFailed }
        activationGrants[token] = nil
        guard grant.expiresAt > now, var user = users[grant.userId] else {
            throw OktaErrorResponse.authenticationFailed
        }
        user.activationToken = nil
        users[user.id] = user
        if user.password == nil, user.status == .provisioned || user.status == .recovery {
            let transaction = AuthnTransaction(
                stateToken: RandomToken.stateToken(), userId: user.id, status: .passwordReset,
                recoveryType: "ACCOUNT_ACTIVATION", expiresAt: now + Self.stateTokenLifetime)
            transactions[transaction.stateToken] = transaction
            return .passwordReset(transaction, user)
        }
        guard user.status == .active, user.password != nil else { throw OktaErrorResponse.authenticationFailed }
        return succeed(userId: user.id)
    }

    /// `POST /api/v1/authn {"username","password"}`: only an ACTIVE user with that password succeeds;
    /// every other case is the same E0000004, so the API does not reveal which logins exist.
    /// `mfaPolicy` may ask for push MFA first (`SandboxState+Push.swift`).
    func authenticate(username: String, password: String) throws -> AuthnOutcome {
        guard let user = verifiedUser(username: username, password: password) else {
            throw OktaErrorResponse.authenticationFailed
        }
        if let step = secondFactorStep(for: user) { return step }
        return succeed(userId: user.id)
    }

    /// The ACTIVE user with this login and a password that has not expired, or nil (`checkPassword`, which counts
    /// a failure toward the lockout).
    func verifiedUser(username: String, password: String) -> UserRecord? {
        guard case .accepted(let user, _) = checkPassword(username: username, password: password) else { return nil }
        return user
    }

    /// `POST /api/v1/authn {"stateToken"}`: the transaction as it stands (extending its life).
    func transactionState(stateToken: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .passwordReset, let user = users[transaction.userId] else {
            throw OktaErrorResponse.wrongAuthnState
        }
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        transactions[stateToken] = transaction
        return .passwordReset(transaction, user)
    }

    /// `POST /api/v1/authn/credentials/reset_password`: sets the first password and activates the user.
    func resetPassword(stateToken: String, newPassword: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .passwordReset, var user = users[transaction.userId] else {
            throw OktaErrorResponse.wrongAuthnState
        }
        let now = clock.now
        transaction.expiresAt = now + Self.stateTokenLifetime
        transactions[stateToken] = transaction
        let failed = PasswordPolicy.failedRules(newPassword, login: user.login)
        guard failed.isEmpty else { throw OktaErrorResponse.passwordPolicy(failed) }
        user.setPassword(newPassword, at: now)
        if user.status != .active { user.transition(to: .active, at: now) }
        users[user.id] = user
        // The token stays known in SUCCESS so that reusing it is E0000079, not "unknown token".
        transaction.status = .success
        transactions[stateToken] = transaction
        return succeed(userId: user.id)
    }

    /// `POST /api/v1/authn/cancel`: ends the transaction; the state token is dead afterwards.
    func cancelTransaction(stateToken: String) throws {
        if let tx = try liveTransaction(stateToken).pushTransactionId { closeWaitingChallenge(tx) }
        transactions[stateToken] = nil
    }

    /// Redeems a session token from Authn: single-use, 5 minutes, and only for a user still ACTIVE.
    public func consumeSessionToken(_ token: String) -> SessionGrant? {
        guard let record = sessionTokens.removeValue(forKey: token), record.expiresAt > clock.now,
            users[record.grant.userId]?.status == .active
        else { return nil }
        return record.grant
    }

    /// Forgets every Authn transaction and session token of a user (deactivate, suspend).
    func endSessions(userId: String) {
        transactions = transactions.filter { $0.value.userId != userId }
        sessionTokens = sessionTokens.filter { $0.value.grant.userId != userId }
        endOAuthSessions(userId: userId)
    }

    func liveTransaction(_ stateToken: String) throws -> AuthnTransaction {
        guard let transaction = transactions[stateToken] else { throw OktaErrorResponse.invalidToken }
        guard transaction.expiresAt > clock.now else {
            transactions[stateToken] = nil
            throw OktaErrorResponse.invalidToken
        }
        return transaction
    }

    func succeed(userId: String) -> AuthnOutcome {
        noteRecordActivity()
        let now = clock.now
        users[userId]!.lastLogin = now
        let token = RandomToken.sessionToken()
        let expiresAt = now + Self.sessionTokenLifetime
        sessionTokens[token] = SessionTokenRecord(grant: SessionGrant(userId: userId, authTime: now), expiresAt: expiresAt)
        return .success(sessionToken: token, expiresAt: expiresAt, user: users[userId]!)
    }
}
