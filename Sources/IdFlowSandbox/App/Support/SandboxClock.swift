import Foundation

/// The one clock behind every expiry in the sandbox: real time plus an offset that only moves forward.
///
/// Tests expire tokens by advancing it (`POST /sandbox/clock`) instead of sleeping. Rate-limit
/// windows deliberately do not use it: clients wait for them in real time.
struct SandboxClock: Sendable {
    private(set) var offset: TimeInterval = 0

    var now: Date { Date().addingTimeInterval(offset) }

    mutating func advance(by seconds: TimeInterval) {
        offset += max(0, seconds)
    }
}
