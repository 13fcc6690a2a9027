import IdFlowFoundation

/// The "the org is gone" switch of a batch. A line that fails with a network error after its retries, while the
/// transport's latest request also found nobody answering (`PacedTransport.orgUnreachable`), trips it: every line
/// not yet sent is then reported at once as not sent, instead of spending a whole retry budget each against an
/// org that is not there (3,000 lines at concurrency 2 took over an hour that way). Lines already sending finish
/// as they would, so the batch ends within one request timeout and one retry budget of the org going away.
public final class BatchOutage: Sendable {
    /// The line that found the org gone, and its error.
    public struct Cause: Sendable, Equatable {
        public var line: Int
        public var error: IdFlowError
    }

    private let first = Locked<Cause?>(nil)
    private let skipped = Locked(0)

    public init() {}

    /// Records the first cause; later ones change nothing.
    func begin(line: Int, error: IdFlowError) {
        first.withLock { $0 = $0 ?? Cause(line: line, error: error) }
    }

    public var cause: Cause? { first.current }

    public var hasBegun: Bool { first.current != nil }

    /// Lines reported as not sent so far.
    public var notSent: Int { skipped.current }

    /// The error a line not sent is reported with: the cause's, naming the line that found the org gone, exit 6.
    func notSentError(orgURL: String) -> IdFlowError {
        skipped.withLock { $0 += 1 }
        let cause = first.current
        let reason: String
        if case .network(_, let found, _)? = cause?.error {
            reason = "\(found) since line \(cause?.line ?? 0); this line was not sent"
        } else {
            reason = "this line was not sent"
        }
        return .network(url: orgURL, reason: reason, hint: Self.hint)
    }

    static let hint = "the org stopped answering; once it answers again, run the same batch with --skip-existing"
}
