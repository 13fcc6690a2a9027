import Foundation
import IdFlowFoundation

/// `register --batch --summary-json`: the run's summary as the last line of stderr, `{"summary": {…}}`, shaped
/// like the error line so a script reading stderr tells the two apart by their one key. It goes to stderr
/// because stdout keeps its contract of exactly one NDJSON line per input line.
public struct BatchSummaryLine: Encodable, Sendable, Equatable {
    public struct Summary: Encodable, Sendable, Equatable {
        /// Input lines that name a user or are malformed (blank lines are not counted).
        public var lines: Int
        public var created: Int
        public var skipped: Int
        public var failed: Int
        /// Lines never sent because Ctrl-C came first (`lines - created - skipped - failed`).
        public var notRun: Int
        public var requests: Int
        /// Wall-clock seconds, to the millisecond.
        public var elapsedSeconds: Double
        public var interrupted: Bool
        /// The run's exit code, as the process exits with it.
        public var exitCode: Int32
    }

    public var summary: Summary

    public init(_ summary: BatchRegistration.Summary) {
        let reported = summary.created + summary.skipped + summary.failed
        self.summary = Summary(
            lines: summary.lines, created: summary.created, skipped: summary.skipped, failed: summary.failed,
            notRun: max(summary.lines - reported, 0), requests: summary.requests,
            elapsedSeconds: (summary.elapsed.inSeconds * 1000).rounded() / 1000, interrupted: summary.interrupted,
            exitCode: summary.exitStatus.rawValue)
    }
}
