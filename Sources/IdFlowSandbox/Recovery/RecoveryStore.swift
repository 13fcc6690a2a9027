import Foundation

/// What the recovery family keeps: the recovery tokens of e-mailed links and of `reset_password` /
/// `forgot_password` URLs, by token.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct RecoveryStore: Sendable {
    var grants: [String: RecoveryGrant] = [:]

    /// Drops recovery tokens past their expiry: an expired token and an unknown one get the same answer.
    mutating func purge(now: Date) {
        grants = grants.filter { $0.value.expiresAt > now }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        ["recoveryGrants": grants.count]
    }
}
