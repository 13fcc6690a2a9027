/// The exit codes of docs/contract.md; scripts branch on them, so the numbers never change.
public enum IdFlowExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// An unexpected internal failure: a bug in idflow.
    case internalFailure = 1
    /// The server rejected the request (4xx validation, conflict, policy).
    case rejected = 3
    /// Authentication or authorization failed (401/403, invalid_grant, bad or expired token).
    case authentication = 4
    /// The user, enrollment, challenge or transaction does not exist.
    case notFound = 5
    /// Network or TLS failure, timeout, connection refused.
    case network = 6
    /// A 5xx, or still rate-limited after the retry budget.
    case server = 7
    /// The user or a policy said no.
    case denied = 8
    /// Gave up waiting.
    case timedOut = 9
    /// Custom registration: recoverable, the same step can be retried.
    case registrationRetry = 10
    /// Custom registration: unrecoverable, start again.
    case registrationRestart = 11
    /// Local state problem: nothing stored, store unreadable, lock not obtained.
    case localState = 12
    /// A security check failed (state, signature, claims, untrusted plain-http host).
    case security = 13
    /// Bad flags or missing configuration.
    case usage = 64
    /// Interrupted (Ctrl-C / SIGINT, or SIGTERM while idflow waits) after cleaning up, or after finishing and
    /// reporting what was under way: nothing half-stored or half-reported.
    case interrupted = 130
}
