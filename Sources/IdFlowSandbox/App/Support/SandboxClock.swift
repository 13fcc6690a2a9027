import Foundation
import NIOConcurrencyHelpers

/// The one clock behind every expiry in the sandbox: real time plus an offset of zero or more.
///
/// Tests expire tokens by advancing it (`POST /sandbox/clock`) instead of sleeping, and move it back (down to
/// real time, never before) so that the sandbox works again for clients on real time: a token issued two hours
/// ahead fails their `iat` check. Rate-limit windows deliberately do not use it: clients wait for them in real time.
///
/// A reference behind a lock rather than a value inside the state actor: the HTTP `Date` header is written on
/// the connection's event loop (`SandboxDateHeaderHandler`), after Hummingbird has put its own real-time `Date`
/// on the response, and must read the same clock without waiting for the actor.
final class SandboxClock: Sendable {
    private struct Reading {
        var offset: TimeInterval = 0
        var frozenAt: Date?
    }

    private let reading: NIOLockedValueBox<Reading>

    /// - Parameter frozen: the clock stands still at creation but for its offset
    ///   (`SandboxConfiguration.freezeClock`): a test whose assertions compare sandbox times to a few seconds
    ///   then holds however slowly a loaded machine runs it.
    init(frozen: Bool = false) {
        reading = NIOLockedValueBox(Reading(frozenAt: frozen ? Date() : nil))
    }

    /// How far ahead of real time the clock is, in seconds.
    var offset: TimeInterval { reading.withLockedValue { $0.offset } }

    var now: Date {
        reading.withLockedValue { ($0.frozenAt ?? Date()).addingTimeInterval($0.offset) }
    }

    /// Moves the clock by `seconds` (back when negative); false, with nothing moved, when that would put it
    /// before real time.
    func move(by seconds: TimeInterval) -> Bool {
        reading.withLockedValue { reading in
            guard seconds.isFinite, reading.offset + seconds >= -Self.tolerance else { return false }
            reading.offset = max(0, reading.offset + seconds)
            return true
        }
    }

    /// Back to real time.
    func reset() {
        reading.withLockedValue { $0.offset = 0 }
    }

    /// Offsets are sums of decimals a client typed: moving back exactly what was advanced must land on zero.
    private static let tolerance: TimeInterval = 0.001
}
