import Foundation

/// Waiting at a token endpoint for someone to act elsewhere (a device code approved in a browser, a push answered
/// on a phone): the one loop of RFC 8628 §3.5 and Okta Direct Authentication alike. A poll every `interval`,
/// `slow_down` adds 5 s for good, a progress line now and then, and the end once `limit` has passed, never a poll
/// made early to beat it. The sleeps go through `PollingClock`, so a test's sleeper sets the time and Ctrl-C (the
/// task cancelled) ends the wait as `interruption`.
package struct IntervalPolling {
    /// What one poll found.
    package enum Answer<Value> {
        case done(Value)
        /// Not yet (`authorization_pending`).
        case pending
        /// Polled too often (`slow_down`).
        case slowDown
    }

    package static let slowDownStep = Duration.seconds(5)

    let context: IdFlowContext
    package private(set) var interval: Duration
    let limit: Duration
    /// What is waited for, in the progress lines: "the sign-in", "the push".
    let what: String
    let progressEvery: Duration
    /// Whether the first poll is made before any wait (a push may be answered already), or an interval in.
    let pollsAtOnce: Bool
    let interruption: IdFlowError

    package init(
        _ context: IdFlowContext, interval: Duration, limit: Duration, waitingFor what: String, progressEvery: Duration,
        pollsAtOnce: Bool, interruption: IdFlowError
    ) {
        self.context = context
        self.interval = max(interval, .seconds(1))
        self.limit = limit
        self.what = what
        self.progressEvery = progressEvery
        self.pollsAtOnce = pollsAtOnce
        self.interruption = interruption
    }

    /// Polls with `poll` until it is done; `timedOut` is thrown once `limit` has passed.
    package mutating func run<Value>(
        timedOut: IdFlowError, _ poll: () async throws(IdFlowError) -> Answer<Value>
    ) async throws(IdFlowError) -> Value {
        var clock = PollingClock(context, limit: limit, interruption: interruption)
        var lastProgress = Duration.zero
        if !pollsAtOnce {
            guard try await clock.waitFullInterval(interval) else { throw timedOut }
        }
        while true {
            switch try await poll() {
            case .done(let value):
                return value
            case .pending:
                if clock.slept - lastProgress >= progressEvery {
                    lastProgress = clock.slept
                    context.message("still waiting for \(what) (\(Self.duration(max(limit - clock.slept, .zero))) left)…")
                }
            case .slowDown:
                interval += Self.slowDownStep
                context.message("the server asked to poll less often; polling every \(Self.duration(interval)) now")
            }
            guard try await clock.waitFullInterval(interval) else { throw timedOut }
        }
    }

    /// A wait as people say it: "45 s", "2 min 30 s", "5 minutes".
    package static func duration(_ duration: Duration) -> String {
        let seconds = Int(duration.inSeconds.rounded())
        guard seconds >= 120 else { return "\(seconds) s" }
        return seconds % 60 == 0 ? "\(seconds / 60) minutes" : "\(seconds / 60) min \(seconds % 60) s"
    }
}
