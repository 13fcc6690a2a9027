import Foundation
import IdFlowFoundation

/// Waits for a push to be answered (§5.2), as okta-mobile-swift does: the first poll at once, then one every
/// `interval` (5 s when absent); `slow_down` adds 5 s for good; `authorization_pending` goes on; once
/// `expires_in` has passed the wait ends (exit 9). Sleeps go through `PollingClock`, so a test's sleeper sets the
/// time and Ctrl-C (the task cancelled) ends it as exit 130.
struct OOBPolling {
    var start: OOBStart
    var context: IdFlowContext

    static let slowDownStep = Duration.seconds(5)
    static let progressEvery = Duration.seconds(30)

    func poll(_ send: () async throws(IdFlowError) -> DirectTokenRequest.Outcome) async throws(IdFlowError)
        -> DirectTokenRequest.Outcome
    {
        var interval = Duration.seconds(max(1, start.interval ?? 5))
        let limit = Duration.seconds(max(0, start.expiresIn))
        var clock = PollingClock(context, limit: limit, interruption: .interrupted("interrupted while waiting for the push"))
        var lastProgress = Duration.zero
        context.message("Waiting for the \(start.channel.rawValue) to be answered (for up to \(LoginDevice.duration(limit)))…")
        while true {
            switch try await send() {
            case .pending:
                if clock.slept - lastProgress >= Self.progressEvery {
                    lastProgress = clock.slept
                    context.message("still waiting for the push (\(LoginDevice.duration(max(limit - clock.slept, .zero))) left)…")
                }
            case .slowDown:
                interval += Self.slowDownStep
                context.message("the server asked to poll less often; polling every \(LoginDevice.duration(interval)) now")
            case let answer:
                return answer
            }
            guard try await clock.waitFullInterval(interval) else {
                throw .timedOut(
                    "the push was not answered within \(LoginDevice.duration(limit)), when its code expired",
                    hint: "run login-direct again and answer the push sooner")
            }
        }
    }
}
