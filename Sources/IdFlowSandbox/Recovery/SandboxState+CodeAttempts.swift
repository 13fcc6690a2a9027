import Foundation

/// One-time codes (e-mail, phone, TOTP), security-question answers and Authn recovery codes are secrets anyone
/// holding a transaction could guess by trying, so failures are limited as Okta limits them: each wrong answer
/// counts for its transaction and for its user (`passwordPolicy.lockout.maxCodeAttempts`); a transaction whose
/// count, or whose user's, reaches the limit is ended, so a fresh transaction buys no fresh tries; a right answer
/// clears the user's count (as do a new password and an unlock). Codes also expire `codeLifetime` after they were
/// sent, on the sandbox clock.
extension SandboxState {
    /// Okta's e-mail and SMS codes are valid for five minutes by default.
    static let codeLifetime: TimeInterval = 5 * 60

    /// Whether `answer` is `code` and the code is still within its lifetime.
    func accepts(_ answer: String, for code: IDXCode) -> Bool {
        clock.now.timeIntervalSince(code.sentAt) < Self.codeLifetime && ConstantTime.equals(answer, code.value)
    }

    /// Whether the user has no tries left: every answer is then refused and its transaction ended.
    func codeAttemptsExhausted(userId: String?) -> Bool {
        let limit = configuration.passwordPolicy.lockout.maxCodeAttempts
        guard limit > 0, let userId, let user = directory.users[userId] else { return false }
        return user.failedCodeAttempts >= limit
    }

    /// Counts a wrong answer in a transaction that had `transactionFailures` before it; true when the transaction
    /// or the user has now reached the limit, so the caller ends the transaction.
    func countCodeFailure(userId: String?, transactionFailures: Int) -> Bool {
        if let userId, directory.users[userId] != nil { directory.users[userId]?.failedCodeAttempts += 1 }
        let limit = configuration.passwordPolicy.lockout.maxCodeAttempts
        guard limit > 0 else { return false }
        return transactionFailures + 1 >= limit || codeAttemptsExhausted(userId: userId)
    }

    /// A right answer: the user's count starts again.
    func clearCodeFailures(userId: String?) {
        if let userId { directory.users[userId]?.failedCodeAttempts = 0 }
    }
}
