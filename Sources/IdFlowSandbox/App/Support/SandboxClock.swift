import Foundation

/// The one clock behind every expiry in the sandbox: real time plus an offset of zero or more.
///
/// Tests expire tokens by advancing it (`POST /sandbox/clock`) instead of sleeping, and move it back (down to
/// real time, never before) so that the sandbox works again for clients on real time: a token issued two hours
/// ahead fails their `iat` check. Rate-limit windows deliberately do not use it: clients wait for them in real time.
struct SandboxClock: Sendable {
    private(set) var offset: TimeInterval = 0
    /// Set, the clock stands still there but for its offset (`SandboxConfiguration.freezeClock`): a test whose
    /// assertions compare sandbox times to a few seconds then holds however slowly a loaded machine runs it.
    var frozenAt: Date?

    var now: Date { (frozenAt ?? Date()).addingTimeInterval(offset) }

    /// Moves the clock by `seconds` (back when negative); false, with nothing moved, when that would put it
    /// before real time.
    mutating func move(by seconds: TimeInterval) -> Bool {
        guard seconds.isFinite, offset + seconds >= -Self.tolerance else { return false }
        offset = max(0, offset + seconds)
        return true
    }

    /// Back to real time.
    mutating func reset() {
        offset = 0
    }

    /// Offsets are sums of decimals a client typed: moving back exactly what was advanced must land on zero.
    private static let tolerance: TimeInterval = 0.001
}
