import Foundation

/// Why a new password chosen after a recovery, or for an expired password, was not set.
enum NewPasswordRefusal: Error, Sendable, Equatable {
    /// The password policy's complexity rules it breaks (`PasswordPolicy.failedRules`, in its order).
    case requirementsNotMet(failedRules: [String])
    /// It is the password the user has now: Okta's password history refuses the last passwords, and the sandbox keeps
    /// only the current one (a history of one).
    case reused
    /// The user is gone, or in a status a new password does not lead out of (SUSPENDED, DEPROVISIONED, STAGED, …).
    case notAllowed
}

extension SandboxState {
    /// The statuses a new password leads out of, to ACTIVE.
    static let statusesANewPasswordEnds: Set<UserStatus> = [.active, .passwordExpired, .recovery, .lockedOut]

    /// Sets the new password of a user who proved who they are (a recovery) or whose password expired: it must pass the
    /// password policy and differ from the current one. The user is ACTIVE afterwards with `passwordChanged` now and no
    /// failed attempts counted: out of PASSWORD_EXPIRED and RECOVERY, and out of LOCKED_OUT too, because Okta's reset
    /// unlocks (a locked-out user who resets the password by e-mail can sign in with it at once; the users API's
    /// `reset_password` on a LOCKED_OUT user likewise ends ACTIVE).
    @discardableResult
    func setNewPassword(userId: String, to password: String) throws(NewPasswordRefusal) -> UserRecord {
        guard let user = directory.users[userId], Self.statusesANewPasswordEnds.contains(user.status) else { throw .notAllowed }
        if let refusal = Self.refusal(of: password, for: user) { throw refusal }
        return completePasswordChange(userId: userId, newPassword: password)
    }

    /// Why `password` cannot replace `user`'s: the complexity rules it breaks, or it is the current password (the
    /// history of one published as `age.historyCount`); nil when it can. Authn's change and reset ask the same.
    static func refusal(of password: String, for user: UserRecord) -> NewPasswordRefusal? {
        let failed = PasswordPolicy.failedRules(password, login: user.login)
        guard failed.isEmpty else { return .requirementsNotMet(failedRules: failed) }
        return user.password?.matches(password) == true ? .reused : nil
    }
}
