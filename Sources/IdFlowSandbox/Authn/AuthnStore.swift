import Foundation

/// What the Classic authentication family (`/api/v1/authn`) keeps: transactions by state token and the
/// session tokens a finished transaction hands out.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct AuthnStore: Sendable {
    var transactions: [String: AuthnTransactionRecord] = [:]
    var sessionTokens: [String: SessionTokenRecord] = [:]

    /// Drops transactions and session tokens past their expiry, which answer exactly as unknown ones do.
    mutating func purge(now: Date) {
        transactions = transactions.filter { $0.value.expiresAt > now }
        sessionTokens = sessionTokens.filter { $0.value.expiresAt > now }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        ["transactions": transactions.count, "sessionTokens": sessionTokens.count]
    }
}
