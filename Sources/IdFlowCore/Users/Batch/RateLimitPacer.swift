import Foundation
import IdFlowFoundation

/// Spaces requests by what the server's `X-Rate-Limit-*` headers say is left, so a batch that keeps to it
/// never sees a 429: requests go at full speed while the window has room, slow down as `Remaining`
/// approaches zero (spread over what is left of the window), and wait for `Reset` once the budget is spent.
///
/// The budget is counted down locally for every request sent and lowered to what the server reports,
/// minus the other requests still in flight (they may not have been counted yet), so it never overshoots.
public struct RateLimitPacer: Sendable {
    /// What a response's rate-limit headers say, with the reset measured against the server's own `Date`.
    public struct Observation: Sendable, Equatable {
        public var limit: Int?
        public var remaining: Int
        /// Epoch seconds at which the window ends, as sent.
        public var resetEpoch: Int
        /// Seconds from when the response was received to the end of the window.
        public var secondsToReset: Double

        public init(limit: Int?, remaining: Int, resetEpoch: Int, secondsToReset: Double) {
            self.limit = limit
            self.remaining = remaining
            self.resetEpoch = resetEpoch
            self.secondsToReset = secondsToReset
        }

        /// Reads the headers; nil when the response has none (the server does not rate-limit).
        public init?(headers: [String: String], now: Date) {
            self.init(now: now) { name in headers.first { HeaderName.same($0.key, name) }?.value }
        }

        /// Reads the headers of a response as the transport gives them: keyed by lower-case name already, so each
        /// is one lookup (a batch reads every response's).
        init?(response: HTTPResponse, now: Date) {
            self.init(now: now) { response.header($0) }
        }

        /// The longest reset a response is believed about, in seconds.
        static let longestWindow: Double = 3600

        private init?(now: Date, header: (String) -> String?) {
            func value(_ name: String) -> String? {
                guard let text = header(name) else { return nil }
                // Values come trimmed from the transport; trim only what is not.
                guard text.utf8.first == 0x20 || text.utf8.first == 0x09 || text.utf8.last == 0x20 || text.utf8.last == 0x09 else {
                    return text
                }
                return text.trimmingCharacters(in: .whitespaces)
            }
            guard let remaining = value("X-Rate-Limit-Remaining").flatMap({ Int($0) }),
                let reset = value("X-Rate-Limit-Reset").flatMap({ Int($0) })
            else { return nil }
            // The Date header has whole seconds and is never later than the server's true time, so the
            // reset measured from it is never shorter than the truth.
            let serverNow = value("Date").flatMap(HTTPDate.parse) ?? now
            // Bounded as read, whatever the server sent: nothing left below none, a window no longer than an hour
            // (Okta's are a minute), so no arithmetic on them can overflow (found by fuzzing).
            self.init(
                limit: value("X-Rate-Limit-Limit").flatMap({ Int($0) }).map { max(0, $0) }, remaining: max(0, remaining),
                resetEpoch: reset, secondsToReset: min(max(0, Double(reset) - serverNow.timeIntervalSince1970), Self.longestWindow))
        }
    }

    /// Below this share of the limit left, requests are spread over the rest of the window.
    public var slowDownBelow: Double = 0.2
    /// Added to every wait for a reset, for the time a request takes to reach the server.
    public var resetMargin: Duration = .milliseconds(100)

    private var budget: Int?
    private var limit: Int?
    private var resetEpoch: Int?
    private var resetAt: ContinuousClock.Instant?
    private var nextSlot: ContinuousClock.Instant?
    /// Requests handed a slot whose response has not been observed yet.
    public private(set) var inFlight = 0

    public init() {}

    /// Reserves the next request's slot and returns when it may be sent (`now` or later).
    public mutating func reserve(now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        inFlight += 1
        if let resetAt, now >= resetAt { startNewWindow() }
        guard var budget else { return now }
        var slot = max(now, nextSlot ?? now)
        if budget <= 0 {
            // Spent: wait for the end of the window, then the whole limit is available again.
            guard let resetAt else { return slot }
            slot = max(slot, resetAt + resetMargin)
            startNewWindow()
            budget = self.budget ?? 1
            nextSlot = slot
        } else if let limit, let resetAt, Double(budget) < Double(limit) * slowDownBelow {
            // Running low: spread what is left over the rest of the window.
            let gap = (resetAt - slot) / budget
            nextSlot = slot + max(.zero, gap)
        }
        self.budget = budget - 1
        return slot
    }

    /// Takes in what a response said; `nil` when it had no rate-limit headers or never arrived.
    public mutating func observe(_ observation: Observation?, now: ContinuousClock.Instant) {
        inFlight = max(0, inFlight - 1)
        guard let observation else { return }
        let reported = observation.remaining - inFlight
        if observation.resetEpoch == resetEpoch, let budget {
            self.budget = min(budget, reported)
        } else if resetEpoch.map({ observation.resetEpoch > $0 }) ?? true {
            budget = reported
            resetEpoch = observation.resetEpoch
        } else {
            return  // a late answer from a window that has already ended
        }
        limit = observation.limit ?? limit
        resetAt = now + .milliseconds(Int(observation.secondsToReset * 1000))
    }

    private mutating func startNewWindow() {
        budget = limit
        resetAt = nil
        nextSlot = nil
    }
}

/// The transport a batch sends through: every request waits for its slot from the shared `RateLimitPacer`
/// and reports the answer's rate-limit headers back; it also counts requests for the summary, and notes whether
/// the org answers at all (`orgUnreachable`), which is how the batch tells an org that went away from one line's
/// bad luck.
public final class PacedTransport: HTTPTransport {
    /// Set per input line by the batch: whether the line has sent a request yet. A line that has not is
    /// abandoned when the batch is interrupted, or the org stopped answering, while it waits for its slot; one
    /// that has is carried through.
    @TaskLocal public static var lineStarted: Locked<Bool>?

    private let base: any HTTPTransport
    private let pacer = Locked(RateLimitPacer())
    private let sent = Locked(0)
    private let interruption: BatchInterruption
    private let outage: BatchOutage
    /// How the latest request to end ended, when it reached no server: set by a connection that could not be made,
    /// cleared by any answer.
    private let unreachable = Locked<TransportFailure?>(nil)
    private let sleep: @Sendable (Duration) async throws -> Void
    private let clock = ContinuousClock()

    public init(
        wrapping base: any HTTPTransport, interruption: BatchInterruption, outage: BatchOutage = BatchOutage(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.base = base
        self.interruption = interruption
        self.outage = outage
        self.sleep = sleep
    }

    /// Requests sent so far, retries included.
    public var requestCount: Int { sent.current }

    /// Whether the latest request to end found no server: the connection was refused, the host was not found, there
    /// is no network, or the request timed out. Any answer, even an error status, clears it.
    public var orgUnreachable: Bool { unreachable.current != nil }

    /// The transport failures that mean "nobody answers there", as opposed to one connection's trouble.
    static func meansUnreachable(_ error: TransportFailure) -> Bool {
        switch error.kind {
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .timedOut: return true
        default: return false
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let slot = pacer.withLock { $0.reserve(now: clock.now) }
        do {
            try await waitUntil(slot)
            Self.lineStarted?.withLock { $0 = true }
            sent.withLock { $0 += 1 }
            let response = try await base.send(request)
            unreachable.withLock { $0 = nil }
            let observation = RateLimitPacer.Observation(response: response, now: Date())
            pacer.withLock { $0.observe(observation, now: clock.now) }
            return response
        } catch {
            if let failure = error as? TransportFailure, Self.meansUnreachable(failure) { unreachable.withLock { $0 = failure } }
            pacer.withLock { $0.observe(nil, now: clock.now) }
            throw error
        }
    }

    /// Waits in short steps, so an interruption, or the org found gone, abandons a line that has sent nothing
    /// without waiting out a whole rate-limit window.
    private func waitUntil(_ slot: ContinuousClock.Instant) async throws {
        var left = slot - clock.now
        while left > .zero {
            if interruption.isTriggered || outage.hasBegun, Self.lineStarted?.current == false {
                throw TransportFailure(.cancelled, reason: "the batch stopped before this line was sent")
            }
            let step = min(left, .milliseconds(100))
            try await sleep(step)
            left -= step
        }
    }
}
