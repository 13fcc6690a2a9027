import Foundation

/// Test controls: the outbox, scripted faults and rate limits.
extension SandboxState {
    /// Every e-mail the sandbox has "sent" and still keeps (the newest `outboxCapacity`), oldest first.
    public var outboxMessages: [OutboxMessage] { outbox }

    /// How many messages the outbox keeps. Anyone may ask for codes (an anonymous sign-up, a registration's
    /// init), so without a bound a script could grow the sandbox's memory without end; a person or a test
    /// reads the newest messages, never the thousandth from last.
    public static let outboxCapacity = 1_000

    /// Puts `message` in the outbox, dropping the oldest beyond `outboxCapacity`; every message the sandbox
    /// "sends" goes through here.
    func deliver(_ message: OutboxMessage) {
        outbox.append(message)
        if outbox.count > Self.outboxCapacity { outbox.removeFirst(outbox.count - Self.outboxCapacity) }
    }

    func clearOutbox() {
        outbox.removeAll()
    }

    /// "Sends" a new 6-digit one-time code to `address` (an e-mail or a phone number): it lands in the outbox,
    /// where a test or a person reads it back, and is returned for the caller to check answers against.
    func sendCode(to address: String, subject: String, channel: String? = nil) -> String {
        let code = RandomToken.string(count: 6, alphabet: Array("0123456789"))
        deliver(OutboxMessage(to: address, subject: subject, code: code, channel: channel, sentAt: clock.now))
        return code
    }

    func addFault(_ fault: Fault) {
        faults.append(fault)
    }

    /// Disarms every fault and lets every held request go.
    func clearFaults() {
        faults.removeAll()
        heldRequests.releaseAll()
    }

    /// Suspends a request held by the fault `id` until the fault is released.
    func holdRequest(fault id: String) async {
        await withCheckedContinuation { heldRequests.wait(id, $0) }
    }

    /// Lets the requests held by fault `id` go (and any that arrive later); the number that were waiting.
    @discardableResult
    func releaseHeldRequests(fault id: String) -> Int {
        heldRequests.release(id)
    }

    /// How many requests fault `id` holds now.
    func heldRequestCount(fault id: String) -> Int {
        heldRequests.waiting(id)
    }

    /// Disarms fault `id` and lets the requests it holds go; false when it was neither armed nor holding any.
    func removeFault(id: String) -> Bool {
        let before = faults.count
        faults.removeAll { $0.id == id }
        let released = heldRequests.release(id)
        return faults.count < before || released > 0
    }

    /// Takes one use of the first fault matching the request, dropping it once used up.
    func takeFault(path: String, method: String) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.matches(path: path, method: method) }) else { return nil }
        let fault = faults[index]
        faults[index].remaining -= 1
        if faults[index].remaining <= 0 { faults.remove(at: index) }
        return fault
    }

    /// Windows run on the sandbox clock, which moves with real time (a client that sleeps until the reset finds
    /// a new window) and with every advance (a test ends a window by moving the clock, not by sleeping).
    func consumeRateLimit(_ family: RateLimitFamily) -> RateLimitStatus {
        rateLimiter.consume(family, now: clock.now)
    }

    func rateLimitStatus(_ family: RateLimitFamily) -> RateLimitStatus {
        rateLimiter.status(family, now: clock.now)
    }

    func rateLimitRule(_ family: RateLimitFamily) -> (RateLimiter.Rule, RateLimitStatus) {
        (rateLimiter.rule(for: family), rateLimiter.status(family, now: clock.now))
    }

    func configureRateLimit(_ family: RateLimitFamily, limit: Int?, windowSeconds: Int?) {
        rateLimiter.configure(family, limit: limit, windowSeconds: windowSeconds)
    }
}
