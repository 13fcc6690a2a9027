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

    /// How many records of each kind the sandbox holds, every family's store counting its own; for tests and
    /// diagnostics (`GET /sandbox/records`).
    public func recordCounts() -> [String: Int] {
        let stores = [
            directory.recordCounts, recovery.recordCounts, authn.recordCounts, oauth.recordCounts,
            deviceGrant.recordCounts, push.recordCounts, idx.recordCounts, oauthService.recordCounts,
            customRegistration.recordCounts, directAuth.recordCounts,
        ]
        return stores.reduce(into: [:]) { counts, store in counts.merge(store) { first, _ in first } }
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

    /// Drops every record that can no longer affect an answer (see the type's comment for the rules); each
    /// family's store purges its own, the Identity Engine's after OAuth's, whose codes its interaction codes name.
    func purgeExpiredRecords() {
        let now = clock.now
        directory.purge(now: now)
        recovery.purge(now: now)
        authn.purge(now: now)
        oauth.purge(now: now)
        deviceGrant.purge(now: now)
        customRegistration.purge(now: now)
        idx.purge(now: now, authorizationCodes: oauth.authorizationCodes)
        push.purge(now: now)
        oauthService.purge(now: now)
        directAuth.purge(now: now)

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
