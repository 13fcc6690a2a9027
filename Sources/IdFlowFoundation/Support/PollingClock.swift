import Foundation

/// The clock of every wait that polls a server (the device grant, a push, an embedded sign-in, `challenges
/// --wait`): it sleeps with the client's sleep and counts time both by the wall clock and by the sleeps
/// themselves, whichever is further along, so a test whose sleep returns at once still reaches the limit
/// after the same number of polls as a real run.
package struct PollingClock {
    let context: IdFlowContext
    let limit: Duration
    /// What a sleep cut short by cancellation is reported as.
    let interruption: IdFlowError
    private let started: Date
    /// The time spent in this clock's sleeps.
    package private(set) var slept: Duration = .zero

    package init(_ context: IdFlowContext, limit: Duration, interruption: IdFlowError = .internalFailure("interrupted while waiting")) {
        self.context = context
        self.limit = limit
        self.interruption = interruption
        started = context.now()
    }

    package var elapsed: Duration {
        max(slept, .milliseconds(Int(context.now().timeIntervalSince(started) * 1000)))
    }

    var remaining: Duration { max(limit - elapsed, .zero) }

    var isOver: Bool { elapsed >= limit }

    /// Sleeps `interval`, never past the limit; false when the limit was already reached.
    package mutating func wait(_ interval: Duration) async throws(IdFlowError) -> Bool {
        guard !isOver else { return false }
        try await sleep(min(interval, remaining))
        return true
    }

    /// Sleeps a full `interval` before the next poll; when less than that is left, sleeps out the limit instead
    /// and returns false, so a poll is never made early.
    package mutating func waitFullInterval(_ interval: Duration) async throws(IdFlowError) -> Bool {
        guard remaining >= interval else {
            try await sleep(remaining)
            return false
        }
        try await sleep(interval)
        return true
    }

    private mutating func sleep(_ duration: Duration) async throws(IdFlowError) {
        do {
            try await context.http.sleep(duration)
        } catch {
            throw interruption
        }
        slept += duration
    }
}
