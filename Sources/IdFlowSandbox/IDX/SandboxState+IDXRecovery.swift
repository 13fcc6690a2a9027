import Foundation

/// Account recovery in the Identity Engine (idx.md §12.3–§12.5): a forgotten password (`recover`), an expired or
/// expiring password (`reenroll-authenticator`, `-warning`), and a locked account (`unlock-account`), under the
/// password policy (`--config` key `passwordPolicy`). Proving who one is goes through the sign-in's own factor steps
/// (`chooseAuthenticator`, `answerFactor`, `resendCode`) with an `IDXSignIn` whose purpose is the recovery;
/// `continueSignIn` sends a passed factor here.
extension SandboxState {
    /// No recovery authenticator for this identifier (none allowed, none enrolled, no such user, or a status that cannot
    /// recover). Okta's key for a reset the org does not allow; the sandbox gives it for an unknown user too, so that a
    /// recovery tells no more about who exists than a user without a recovery authenticator would.
    static let resetNotAllowed = IDXMessage(
        text: "Reset password is not allowed at this time. Please contact support for assistance.",
        key: "oie.selfservice.reset.password.not.allowed")
    /// Self-service unlock turned off, or no recovery authenticator to unlock with (`error-unlock-account-not-allowed.json`).
    static let unlockNotAllowed = IDXMessage(
        text: "Self Service Unlock is not allowed at this time. Please contact support for assistance.",
        key: "oie.selfservice.user.unlock.not.allowed")

    /// Whether `recover` is offered on the password: some authenticator may recover it.
    var passwordRecoverable: Bool { !configuration.passwordPolicy.recovery.authenticators.isEmpty }

    /// Whether `identify` offers `unlock-account`.
    var unlockOffered: Bool { configuration.passwordPolicy.lockout.selfServiceUnlock && passwordRecoverable }

    /// `POST /idp/idx/recover` (the password's `recover`): before anyone is named, `identify-recovery`; from the password
    /// challenge, the recovery authenticators of the user named there. Nil where no password is asked for.
    func recover(_ transaction: IDXTransaction) -> IDXOutcome? {
        switch transaction.step {
        case .identify:
            guard passwordRecoverable else { return .refused(transaction, message: Self.resetNotAllowed) }
            return .next(updateStep(transaction, to: .identifyRecovery))
        case .challengePassword(let login):
            return beginRecovery(transaction, login: login)
        default:
            return nil
        }
    }

    /// `identify-recovery`'s identifier, or the login of the password challenge → `select-authenticator-authenticate`
    /// among the user's recovery authenticators; without one, the same step with `resetNotAllowed`.
    func beginRecovery(_ transaction: IDXTransaction, login: String) -> IDXOutcome {
        // The statuses a new password would lead out of: SUSPENDED and the like cannot recover.
        guard let user = findUser(login: login), Self.statusesANewPasswordEnds.contains(user.status) else {
            return .refused(transaction, message: Self.resetNotAllowed)
        }
        let progress = IDXSignIn(userId: user.id, passed: [], purpose: .recoverPassword)
        guard !usableFactors(progress).isEmpty else { return .refused(transaction, message: Self.resetNotAllowed) }
        return .next(updateStep(transaction, to: .selectAuthenticator(progress)))
    }

    /// `POST /idp/idx/unlock-account` from `identify` → `select-authenticator-unlock-account`; with self-service unlock
    /// off (where `identify` does not offer it) the same step with `unlockNotAllowed`.
    func beginUnlock(_ transaction: IDXTransaction) -> IDXOutcome {
        guard case .identify = transaction.step, unlockOffered else { return .refused(transaction, message: Self.unlockNotAllowed) }
        return .next(updateStep(transaction, to: .selectUnlockAuthenticator))
    }

    /// `POST /idp/idx/challenge {"identifier", "authenticator": {"id", "methodType"}}` from
    /// `select-authenticator-unlock-account` → the chosen recovery authenticator's challenge, as at a sign-in. A user
    /// that is not locked goes the same way and ends with the same message (Okta's unlock has nothing to undo, and the
    /// recordings show no other answer). An unknown identifier, a user who cannot unlock (SUSPENDED, …) or lacks the
    /// chosen authenticator: the same step with `unlockNotAllowed`.
    func chooseUnlockAuthenticator(
        _ transaction: IDXTransaction, identifier: String, id: String?, methodType: String?, clientOS: String
    ) -> IDXOutcome {
        let unlockable: Set<UserStatus> = [.lockedOut, .active, .passwordExpired]
        guard let user = findUser(login: identifier), unlockable.contains(user.status) else {
            return .refused(transaction, message: Self.unlockNotAllowed)
        }
        let proving = updateStep(
            transaction, to: .selectAuthenticator(IDXSignIn(userId: user.id, passed: [], purpose: .unlockAccount)))
        switch chooseAuthenticator(proving, id: id, methodType: methodType, clientOS: clientOS) {
        case .sent(let next), .tooSoon(let next): return .next(next)
        case nil: return .refused(updateStep(proving, to: .selectUnlockAuthenticator), message: Self.unlockNotAllowed)
        }
    }

    /// After a recovery's factor: a new password to choose, or the account unlocked.
    func continueRecovery(_ transaction: IDXTransaction, _ progress: IDXSignIn) -> IDXTransaction {
        switch progress.purpose {
        case .recoverPassword:
            return updateStep(transaction, to: .changePassword(progress, .reset))
        case .unlockAccount:
            if directory.users[progress.userId]?.status == .lockedOut { unlockUser(userId: progress.userId) }
            return updateStep(transaction, to: .unlocked(userId: progress.userId))
        case .signIn:
            return continueSignIn(transaction, progress)
        }
    }

    /// The right password's check beyond a plain acceptance: expired → `reenroll-authenticator`; inside the warning
    /// window → `reenroll-authenticator-warning`; otherwise on with the sign-in.
    func passwordAccepted(_ transaction: IDXTransaction, userId: String, expired: Bool, daysToExpiry: Int?) -> IDXTransaction {
        var progress = IDXSignIn(userId: userId)
        // After a passkey sign-in that was not enough alone, the passkey still counts.
        if let first = transaction.passkeyFirst, first.userId == userId {
            progress.passed += first.passed
            progress.passkeyVerifiedUser = first.passkeyVerifiedUser
        }
        if expired { return updateStep(transaction, to: .changePassword(progress, .expired)) }
        if let daysToExpiry { return updateStep(transaction, to: .changePassword(progress, .expiring(daysToExpiry: daysToExpiry))) }
        return continueSignIn(transaction, progress)
    }

    /// `challenge/answer {"credentials": {"passcode"}}` at a new password: set (`setNewPassword`), the sign-in goes on,
    /// the password and a recovery's factor counting as passed; refused, the same form with
    /// `password.passwordRequirementsNotMet` on the field, to try again.
    func answerNewPassword(_ transaction: IDXTransaction, password: String) -> IDXOutcome {
        guard case .changePassword(let progress, let reason) = transaction.step else {
            return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
        }
        do throws(NewPasswordRefusal) {
            try setNewPassword(userId: progress.userId, to: password)
        } catch {
            switch error {
            case .notAllowed: return .refused(transaction, message: Self.resetNotAllowed)
            case .requirementsNotMet, .reused:
                return .invalid(transaction, IDXFieldErrors("credentials.passcode", IDXWire.passwordRequirementsNotMet))
            }
        }
        let signIn = reason == .reset ? IDXSignIn(userId: progress.userId, passed: [.password] + progress.passed) : progress
        return .next(continueSignIn(transaction, signIn))
    }

    /// `skip` at `reenroll-authenticator-warning`: the password stays, the sign-in goes on; nil anywhere else.
    func skipPasswordChange(_ transaction: IDXTransaction) -> IDXTransaction? {
        guard case .changePassword(let progress, .expiring) = transaction.step else { return nil }
        return continueSignIn(transaction, progress)
    }

    /// The subject of a code's message, by what the code is for.
    static func codeSubject(_ purpose: IDXPurpose) -> String {
        switch purpose {
        case .signIn: return "Your sign-in verification code"
        case .recoverPassword: return "Your password reset verification code"
        case .unlockAccount: return "Your account unlock verification code"
        }
    }
}
