import Foundation

/// Housekeeping that keeps a sandbox running for days at flat memory: records that can no longer
/// change any answer are dropped in an amortized sweep, never by a scan on every request.
///
/// A record is dropped only when the answer to a client is the same with or without it (an expired
/// code and an unknown code are the same `invalid_grant`), so purging is invisible on the wire. What
/// reuse detection needs stays: a rotated refresh token lives until its own idle expiry (at which
/// point presenting it is a plain `invalid_grant` anyway), a used code until its family is gone, and
/// a family as long as any token of it is left, and an expired device code for an hour (`expired_token`, not
/// `invalid_grant`).
extension SandboxState {
    /// A sweep runs after this many record-creating operations at least; more when more is stored,
    /// so that a sweep's cost (proportional to what is stored) is spread over as many operations.
    static let sweepMinimumOperations = 512
    /// A sweep also runs once this much sandbox-clock time has passed since the last one, so that a
    /// quiet sandbox whose clock a test moves forward still lets go of what expired.
    static let sweepClockInterval: TimeInterval = 60

    /// How many records of each kind the sandbox holds; for tests and diagnostics.
    public func recordCounts() -> [String: Int] {
        [
            "users": users.count,
            "activationGrants": activationGrants.count,
            "recoveryGrants": recoveryGrants.count,
            "transactions": transactions.count,
            "sessionTokens": sessionTokens.count,
            "pendingAuthorizations": pendingAuthorizations.count,
            "authorizationCodes": authorizationCodes.count,
            "browserSessions": browserSessions.count,
            "tokenFamilies": tokenFamilies.count,
            "accessTokens": accessTokens.count,
            "refreshTokens": refreshTokens.count,
            "pushChallenges": pushChallenges.count,
            "usedDeviceTokenIDs": usedDeviceTokenIDs.count,
            "deviceAuthorizations": deviceAuthorizations.count,
            "customRegistrations": customRegistrations.count,
            "idxTransactions": idxTransactions.count,
            "idxInteractionCodes": idxInteractionCodes.count,
            "usedDPoPProofIDs": usedDPoPProofIDs.count,
            "usedClientAssertionIDs": usedClientAssertionIDs.count,
        ]
    }

    /// Counts an operation that stores a record and sweeps when one is due. Every such operation
    /// calls it first, so garbage can never outgrow the work done to make it.
    func noteRecordActivity() {
        sweep.operations += 1
        let now = clock.now
        guard
            sweep.operations >= max(Self.sweepMinimumOperations, sweep.recordsKept)
                || now.timeIntervalSince(sweep.lastSweep) >= Self.sweepClockInterval
        else { return }
        purgeExpiredRecords()
    }

    /// Drops every record that can no longer affect an answer (see the type's comment for the rules).
    func purgeExpiredRecords() {
        let now = clock.now
        activationGrants = activationGrants.filter { $0.value.expiresAt > now }
        recoveryGrants = recoveryGrants.filter { $0.value.expiresAt > now }
        transactions = transactions.filter { $0.value.expiresAt > now }
        sessionTokens = sessionTokens.filter { $0.value.expiresAt > now }
        pendingAuthorizations = pendingAuthorizations.filter { $0.value.expiresAt > now }
        browserSessions = browserSessions.filter { $0.value.expiresAt > now }
        // Kept past expiry for a while: an expired code answers expired_token, an unknown one invalid_grant.
        deviceAuthorizations = deviceAuthorizations.filter { $0.value.expiresAt + Self.deviceCodeRetention > now }
        deviceCodesByUserCode = deviceCodesByUserCode.filter { deviceAuthorizations[$0.value] != nil }
        customRegistrations = customRegistrations.filter { $0.value.expiresAt > now }

        func liveFamily(_ id: String) -> Bool { tokenFamilies[id].map { !$0.revoked } ?? false }
        accessTokens = accessTokens.filter { !$0.value.revoked && $0.value.expiresAt > now && liveFamily($0.value.familyID) }
        refreshTokens = refreshTokens.filter {
            !$0.value.revoked && now.timeIntervalSince($0.value.lastUsed) < Self.refreshTokenIdleLifetime
                && liveFamily($0.value.familyID)
        }
        var referenced = Set(accessTokens.values.map(\.familyID))
        referenced.formUnion(refreshTokens.values.map(\.familyID))
        tokenFamilies = tokenFamilies.filter { !$0.value.revoked && referenced.contains($0.key) }
        // A used code whose family still lives must stay: replaying it revokes that family.
        authorizationCodes = authorizationCodes.filter { entry in
            entry.value.expiresAt > now || entry.value.familyID.map { tokenFamilies[$0] != nil } ?? false
        }

        // An expired Identity Engine transaction answers idx.session.expired, exactly as an unknown one does.
        idxTransactions = idxTransactions.filter { $0.value.expiresAt > now }
        idxInteractionHandles = idxInteractionHandles.filter { idxTransactions[$0.value] != nil }
        idxInteractionCodes = idxInteractionCodes.filter { authorizationCodes[$0.value] != nil }

        pushChallenges = pushChallenges.filter { $0.value.expiresAt + Self.pushChallengeRetention > now }
        usedDeviceTokenIDs = usedDeviceTokenIDs.filter { $0.value >= now }
        purgeOAuthServiceRecords(now: now)

        let kept = recordCounts().filter { $0.key != "users" }.values.reduce(0, +)
        sweep = SweepSchedule(lastSweep: now, recordsKept: kept)
    }
}

/// When the last sweep ran and what it left, so the next one can be scheduled without scanning.
struct SweepSchedule: Sendable {
    var lastSweep: Date
    /// Records left by the last sweep; the next waits for at least as many operations.
    var recordsKept = 0
    /// Record-creating operations since the last sweep.
    var operations = 0
}
