import Foundation

/// What a sign-in's password check found (`SandboxState.checkPassword`), for Authn, the Identity Engine, the
/// password grant and the device grant alike, so that every way in counts failures and sees expiry the same.
enum PasswordCheck: Sendable {
    /// The right password of an ACTIVE user; `daysToExpiry` is set inside the policy's warning window.
    case accepted(UserRecord, daysToExpiry: Int?)
    /// The right password, but it has expired (status PASSWORD_EXPIRED, or older than `maxAgeDays`): only a
    /// change of password lets the user in.
    case expired(UserRecord)
    /// The account is LOCKED_OUT (by this attempt or before), whatever the password; callers that do not show
    /// lockout answer it like `.refused`.
    case lockedOut(UserRecord)
    /// Unknown login, wrong password, or a status that cannot sign in (SUSPENDED, STAGED, …).
    case refused
}

extension SandboxState {
    /// Checks a sign-in's password under the password policy: a wrong one counts toward the lockout (the attempt that
    /// reaches `maxAttempts` locks the account), a right one clears the count and is judged by its age.
    func checkPassword(username: String, password: String) -> PasswordCheck {
        guard var user = findUser(login: username) else { return .refused }
        if user.status == .lockedOut { return .lockedOut(user) }
        guard [.active, .passwordExpired].contains(user.status), let stored = user.password else { return .refused }
        let policy = configuration.passwordPolicy
        guard stored.matches(password) else {
            user.failedPasswordAttempts += 1
            if policy.lockout.maxAttempts > 0, user.failedPasswordAttempts >= policy.lockout.maxAttempts {
                user.failedPasswordAttempts = 0
                user.transition(to: .lockedOut, at: now)
                directory.users[user.id] = user
                return .lockedOut(user)
            }
            directory.users[user.id] = user
            return .refused
        }
        user.failedPasswordAttempts = 0
        let expiry = passwordExpiry(of: user)
        if user.status == .active, let expiry, expiry <= now { user.transition(to: .passwordExpired, at: now) }
        directory.users[user.id] = user
        if user.status == .passwordExpired { return .expired(user) }
        guard let expiry, policy.age.expireWarnDays > 0 else { return .accepted(user, daysToExpiry: nil) }
        let days = Int((expiry.timeIntervalSince(now) / 86_400).rounded(.up))
        return .accepted(user, daysToExpiry: days <= policy.age.expireWarnDays ? days : nil)
    }

    /// When the user's password stops working under `age.maxAgeDays`; nil when passwords do not age.
    func passwordExpiry(of user: UserRecord) -> Date? {
        let maxAge = configuration.passwordPolicy.age.maxAgeDays
        guard maxAge > 0, let changed = user.passwordChanged else { return nil }
        return changed.addingTimeInterval(TimeInterval(maxAge) * 86_400)
    }
}
