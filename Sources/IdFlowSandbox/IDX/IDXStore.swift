import Foundation

/// What the Identity Engine (IDX) keeps: transactions by state handle, the state handle of each interaction
/// handle, the authorization code of each interaction code, and each user's phone, security question and
/// Google Authenticator by user id.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct IDXStore: Sendable {
    var transactions: [String: IDXTransaction] = [:]
    var interactionHandles: [String: String] = [:]
    var interactionCodes: [String: String] = [:]
    var enrollments: [String: IDXUserEnrollments] = [:]
    /// Skips used of grace periods counted by skips, by "userId authenticator"; the transactions that skipped
    /// (`SandboxState+IDXScreens.swift`).
    var graceSkips: [String: Int] = [:]
    var graceSkipped: Set<String> = []
    /// Consent granted, by "userId clientId": asked once per user and app.
    var consents: Set<String> = []

    /// Drops expired transactions (an expired one answers `idx.session.expired`, exactly as an unknown one
    /// does), the handles that pointed at them, and interaction codes whose authorization code is gone;
    /// so it runs after the OAuth store's purge. Enrollments stay.
    mutating func purge(now: Date, authorizationCodes: [String: AuthorizationCodeRecord]) {
        transactions = transactions.filter { $0.value.expiresAt > now }
        let kept = transactions
        graceSkipped = graceSkipped.filter { kept[$0] != nil }
        interactionHandles = interactionHandles.filter { kept[$0.value] != nil }
        interactionCodes = interactionCodes.filter { authorizationCodes[$0.value] != nil }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        [
            "idxTransactions": transactions.count,
            "idxInteractionHandles": interactionHandles.count,
            "idxInteractionCodes": interactionCodes.count,
            "idxEnrollments": enrollments.count,
        ]
    }
}
