import IdFlowFoundation

/// The "stop taking new lines" switch of a batch: the command flips it on SIGINT or SIGTERM, a test flips it directly.
/// Lines already under way are finished and reported; lines not yet started are left for a rerun.
public final class BatchInterruption: Sendable {
    private let triggered = Locked(false)

    public init() {}

    /// Stops the batch from starting more lines; safe to call from any thread, more than once.
    public func trigger() {
        triggered.withLock { $0 = true }
    }

    public var isTriggered: Bool { triggered.current }
}
