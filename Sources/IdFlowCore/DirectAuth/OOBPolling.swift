import Foundation
import IdFlowFoundation

/// Waits for a push to be answered (§5.2), as okta-mobile-swift does: the first poll at once, then one every
/// `interval` (5 s when absent); `slow_down` adds 5 s for good; `authorization_pending` goes on; once
/// `expires_in` has passed the wait ends (exit 9). The loop is the device grant's (`IntervalPolling`).
struct OOBPolling {
    var start: OOBStart
    var context: IdFlowContext

    static let progressEvery = Duration.seconds(30)

    func poll(_ send: () async throws(IdFlowError) -> DirectTokenRequest.Outcome) async throws(IdFlowError)
        -> DirectTokenRequest.Outcome
    {
        let limit = Duration.seconds(max(0, start.expiresIn))
        var polling = IntervalPolling(
            context, interval: .seconds(start.interval ?? 5), limit: limit, waitingFor: "the push", progressEvery: Self.progressEvery,
            pollsAtOnce: true, interruption: .interrupted("interrupted while waiting for the push"))
        context.message("Waiting for the \(start.channel.rawValue) to be answered (for up to \(IntervalPolling.duration(limit)))…")
        return try await polling.run(
            timedOut: .timedOut(
                "the push was not answered within \(IntervalPolling.duration(limit)), when its code expired",
                hint: "run login-direct again and answer the push sooner")
        ) { () throws(IdFlowError) in
            switch try await send() {
            case .pending: return .pending
            case .slowDown: return .slowDown
            case let answer: return .done(answer)
            }
        }
    }
}
