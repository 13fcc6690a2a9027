import Foundation

/// What Direct Authentication keeps: OOB transactions by `oob_code`, MFA transactions by `mfa_token`, passkey
/// challenges by their challenge (the `/token` call names no transaction otherwise, direct-auth.md §6.1), and how many
/// `slow_down`s it has answered (for tests: `directAuthSlowDowns` in `GET /sandbox/records`).
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct DirectAuthStore: Sendable {
    var oobTransactions: [String: DirectAuthOOBRecord] = [:]
    var mfaTransactions: [String: DirectAuthMFARecord] = [:]
    var webAuthnChallenges: [String: DirectAuthWebAuthnRecord] = [:]
    var slowDowns = 0

    /// Drops expired transactions: an expired code and an unknown one get the same 403 expired answer.
    mutating func purge(now: Date) {
        oobTransactions = oobTransactions.filter { $0.value.expiresAt > now }
        mfaTransactions = mfaTransactions.filter { $0.value.expiresAt > now }
        webAuthnChallenges = webAuthnChallenges.filter { $0.value.expiresAt > now }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`), and the `slow_down` count.
    var recordCounts: [String: Int] {
        [
            "directAuthOOBTransactions": oobTransactions.count, "directAuthMFATransactions": mfaTransactions.count,
            "directAuthWebAuthnChallenges": webAuthnChallenges.count, "directAuthSlowDowns": slowDowns,
        ]
    }
}
