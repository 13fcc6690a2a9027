import Foundation

/// What every way back into an account shares, whichever API started it (the users API's `reset_password` and
/// `forgot_password`, Authn's `recovery/*`, and the Identity Engine's recovery): the recovery tokens mailed or handed
/// to an admin, the codes texted to the user's phone, the policy's say on which of them may recover, and the end of
/// it all (a new password, or an unlocked account).
extension SandboxState {
    /// A recovery token lives an hour, Okta's default for reset and unlock e-mails.
    static let recoveryTokenLifetime: TimeInterval = 3600

    /// A new single-use recovery token for the user, `prefix` and random characters to 20 in all (`drp…` for an
    /// admin's reset, `dfp…` for forgot password, as recorded). It replaces the user's older tokens of the same
    /// type, as a newer reset e-mail does at Okta: anyone may ask for a recovery by login, so without this each
    /// anonymous request would leave one more live token (and one more chance to guess) for the same user.
    func issueRecoveryToken(userId: String, type: RecoveryType, prefix: String = "") -> String {
        noteRecordActivity()
        recovery.grants = recovery.grants.filter { !($0.value.userId == userId && $0.value.type == type) }
        let token = prefix + RandomToken.string(count: 20 - prefix.count, alphabet: RandomToken.urlSafeAlphabet)
        recovery.grants[token] = RecoveryGrant(userId: userId, type: type, expiresAt: clock.now + Self.recoveryTokenLifetime)
        return token
    }

    /// Takes a recovery token (it is single-use) if it is live and its user still exists; nil otherwise.
    func takeRecoveryGrant(_ token: String) -> RecoveryGrant? {
        guard let grant = recovery.grants.removeValue(forKey: token), grant.expiresAt > clock.now, directory.users[grant.userId] != nil
        else { return nil }
        return grant
    }

    /// "Mails" a recovery link to the user's primary address: the outbox entry carries the link and its token.
    func mailRecoveryLink(to user: UserRecord, type: RecoveryType, link: String, token: String) {
        let subject = type == .unlock ? "Unlock your account" : "Reset your password"
        deliver(OutboxMessage(to: user.email, subject: subject, link: link, recoveryToken: token, sentAt: clock.now))
    }

    /// Where a recovery e-mail's link points: the sign-in page's reset or unlock screen with the token at the end.
    func recoveryLink(type: RecoveryType, token: String) -> String {
        type == .unlock ? "\(orgURL)/signin/unlock/\(token)" : "\(orgURL)/signin/reset-password/\(token)"
    }

    /// The phone number enrolled through the Identity Engine (SMS or voice), if the user has one.
    func recoveryPhone(userId: String) -> String? {
        idx.enrollments[userId]?.phone?.phoneNumber
    }

    /// Texts (or calls with) a new 6-digit recovery code to the user's phone; nil when no phone is enrolled.
    func sendRecoveryCode(userId: String, factor: RecoveryFactor) -> IDXCode? {
        guard factor != .email, let phone = recoveryPhone(userId: userId) else { return nil }
        return sendIDXCode(to: phone, channel: factor.channel, subject: "Your account recovery code")
    }

    /// Whether the password policy lets `factor` recover an account (`passwordPolicy.recovery.authenticators`).
    func recoveryAllows(_ factor: RecoveryFactor) -> Bool {
        configuration.passwordPolicy.recovery.authenticators.contains(factor.authenticator)
    }

    /// E0000080 when `password` breaks the complexity policy for this user or is the current password (the same
    /// rules as the Identity Engine's new password, `SandboxState.refusal(of:for:)`).
    func checkNewPassword(_ password: String, for user: UserRecord) throws {
        if Self.refusal(of: password, for: user) != nil { throw OktaErrorResponse.passwordPolicy }
    }

    /// The end of a reset or change of password (already checked): the new password, status ACTIVE, no failed
    /// attempts, and every recovery token of the user dead, since they were for the password just replaced.
    @discardableResult
    func completePasswordChange(userId: String, newPassword: String) -> UserRecord {
        var user = directory.users[userId]!
        let now = clock.now
        user.setPassword(newPassword, at: now)
        user.failedPasswordAttempts = 0
        user.failedCodeAttempts = 0
        if user.status != .active { user.transition(to: .active, at: now) }
        directory.users[userId] = user
        recovery.grants = recovery.grants.filter { $0.value.userId != userId }
        return user
    }

    /// The end of an unlock (self-service or the admin's `lifecycle/unlock`): LOCKED_OUT → ACTIVE, failures forgotten.
    @discardableResult
    func unlockUser(userId: String) -> UserRecord {
        var user = directory.users[userId]!
        user.failedPasswordAttempts = 0
        user.failedCodeAttempts = 0
        if user.status == .lockedOut { user.transition(to: .active, at: clock.now) }
        directory.users[userId] = user
        recovery.grants = recovery.grants.filter { !($0.value.userId == userId && $0.value.type == .unlock) }
        return user
    }
}
