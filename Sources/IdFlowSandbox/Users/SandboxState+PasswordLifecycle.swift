import Foundation

/// What `lifecycle/reset_password` and `credentials/forgot_password` answer.
enum RecoveryLinkOutcome: Sendable {
    /// `sendEmail=false`: `{"resetPasswordUrl"}` for the admin to pass on.
    case url(String)
    /// `sendEmail=true`: the link went to the outbox and the body is `{}`.
    case emailed
}

/// The users API's calls that put a user into the recovery statuses and out of them (okta-core.md §G): expire the
/// password, hand out a reset link, unlock, and forget the user's factors.
extension SandboxState {
    /// The statuses whose password an admin can expire: users who sign in with one.
    private static let passwordStatuses: Set<UserStatus> = [.active, .passwordExpired]

    /// `lifecycle/expire_password`: ACTIVE or PASSWORD_EXPIRED → PASSWORD_EXPIRED; the same password must be given
    /// again at the next sign-in, with a new one (Authn `change_password`). Others are E0000038.
    func expirePassword(userId: String) throws -> UserRecord {
        var user = try self.user(idOrLogin: userId)
        guard Self.passwordStatuses.contains(user.status), user.password != nil else {
            throw OktaErrorResponse.operationNotAllowedForStatus
        }
        // The recording's POST answer still shows the old statusChanged (a GET a moment later the new one); the
        // sandbox shows the new one at once.
        user.transition(to: .passwordExpired, at: clock.now)
        directory.users[user.id] = user
        return user
    }

    /// `lifecycle/expire_password_with_temp_password` (and the older `expire_password?tempPassword=true`): a random
    /// 12-character password that meets the policy becomes the user's, already expired.
    func expirePasswordWithTempPassword(userId: String, revokeSessions: Bool) throws -> String {
        var user = try self.user(idOrLogin: userId)
        guard Self.passwordStatuses.contains(user.status) else { throw OktaErrorResponse.operationNotAllowedForStatus }
        var temporary: String
        repeat {
            temporary = RandomToken.string(count: 12, alphabet: RandomToken.base62Alphabet)
        } while !PasswordPolicy.failedRules(temporary, login: user.login).isEmpty
        let now = clock.now
        user.setPassword(temporary, at: now)
        user.failedPasswordAttempts = 0
        user.transition(to: .passwordExpired, at: now)
        directory.users[user.id] = user
        if revokeSessions { endSessions(userId: user.id) }
        return temporary
    }

    /// `lifecycle/reset_password`: ACTIVE, PASSWORD_EXPIRED, LOCKED_OUT or RECOVERY → RECOVERY, and one valid reset
    /// link `{org}/reset_password/drp…` (a new one kills the last). Its token, redeemed with `POST /api/v1/authn
    /// {"token"}`, leads to PASSWORD_RESET; the reset makes the user ACTIVE. Until then no password signs in.
    func resetPasswordLink(userId: String, sendEmail: Bool, revokeSessions: Bool) throws -> RecoveryLinkOutcome {
        var user = try self.user(idOrLogin: userId)
        guard [.active, .passwordExpired, .lockedOut, .recovery].contains(user.status) else {
            throw OktaErrorResponse.operationNotAllowedForStatus
        }
        user.transition(to: .recovery, at: clock.now)
        directory.users[user.id] = user
        if revokeSessions { endSessions(userId: user.id) }
        recovery.grants = recovery.grants.filter { !($0.value.userId == user.id && $0.value.type == .password) }
        let token = issueRecoveryToken(userId: user.id, type: .password, prefix: "drp")
        return deliverResetLink(to: user, link: "\(orgURL)/reset_password/\(token)", token: token, sendEmail: sendEmail)
    }

    /// `credentials/forgot_password`: a reset link `{org}/signin/reset-password/dfp…` for a user who signs in with a
    /// password (ACTIVE, PASSWORD_EXPIRED or LOCKED_OUT), who stays in that status until the link is used.
    /// Others are E0000034.
    func forgotPasswordLink(userId: String, sendEmail: Bool) throws -> RecoveryLinkOutcome {
        let user = try self.user(idOrLogin: userId)
        guard [.active, .passwordExpired, .lockedOut].contains(user.status), user.password != nil else {
            throw OktaErrorResponse.forgotPasswordNotAllowed
        }
        let token = issueRecoveryToken(userId: user.id, type: .password, prefix: "dfp")
        return deliverResetLink(to: user, link: recoveryLink(type: .password, token: token), token: token, sendEmail: sendEmail)
    }

    private func deliverResetLink(to user: UserRecord, link: String, token: String, sendEmail: Bool) -> RecoveryLinkOutcome {
        guard sendEmail else { return .url(link) }
        mailRecoveryLink(to: user, type: .password, link: link, token: token)
        return .emailed
    }

    /// `lifecycle/unlock`: LOCKED_OUT → ACTIVE with the failure count cleared; any other status is E0000032.
    func unlock(userId: String) throws {
        let user = try self.user(idOrLogin: userId)
        guard user.status == .lockedOut else { throw OktaErrorResponse.unlockNotAllowed }
        unlockUser(userId: user.id)
    }

    /// `lifecycle/reset_factors`: forgets every factor the user enrolled (the Identity Engine's phone, security
    /// question and Google Authenticator, and Okta Verify with its keys); the password and e-mail stay. Any status.
    func resetFactors(userId: String) throws {
        let user = try self.user(idOrLogin: userId)
        idx.enrollments[user.id] = nil
        for enrollment in activeEnrollments(userId: user.id) {
            try deleteEnrollment(id: enrollment.id, userId: user.id)
        }
        var updated = user
        updated.lastUpdated = clock.now
        directory.users[user.id] = updated
    }
}
