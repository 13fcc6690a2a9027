import Foundation

/// When to try a request again and how long to wait first.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (`--max-retries`).
    public var maxRetries: Int
    /// The first backoff step; each further retry doubles it.
    public var baseDelay: Duration
    /// No single wait is longer than this, whatever the server's reset time says.
    public var maxDelay: Duration

    public init(maxRetries: Int, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(60)) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Whether a response status is worth another attempt for this request: a 429 means the server did not
    /// act, so any method may retry; a 503 only for idempotent requests.
    func shouldRetry(status: Int, request: HTTPRequest) -> Bool {
        status == 429 || (status == 503 && request.isIdempotent)
    }

    /// Whether a transport error is worth another attempt: a connection that was never made is safe for any
    /// method; one that broke after sending is safe only for idempotent requests.
    func shouldRetry(error: TransportFailure, request: HTTPRequest) -> Bool {
        switch error.kind {
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet:
            return true
        case .timedOut, .networkConnectionLost, .badServerResponse:
            return request.isIdempotent
        default:
            return false
        }
    }

    /// The wait before retry number `retry` (1-based): the server's rate-limit reset measured against its own
    /// `Date` (so a skewed local clock does not matter) unless `Retry-After` says otherwise, else exponential backoff; plus jitter.
    func delay(before retry: Int, after response: HTTPResponse?, jitter: Duration) -> Duration {
        var wait = baseDelay * Int(1 << min(retry - 1, 16))
        if let response {
            // Retry-After is the standard header and says exactly how long; Okta sends only its rate-limit reset.
            if let retryAfter = response.header("Retry-After").flatMap(Double.init), retryAfter.isFinite {
                wait = bounded(seconds: retryAfter)
            } else if let reset = response.header("X-Rate-Limit-Reset").flatMap(Double.init), reset.isFinite, response.status == 429 {
                let serverNow = response.header("Date").flatMap(HTTPDate.parse)?.timeIntervalSince1970 ?? Date().timeIntervalSince1970
                wait = bounded(seconds: reset - serverNow)
            }
        }
        return min(wait + jitter, maxDelay)
    }

    /// A wait a server asked for, between none and `maxDelay`, capped before it becomes whole milliseconds: the
    /// headers are whatever the server (or a proxy) sent, and `Retry-After: 1e300` must not trap (found by fuzzing).
    private func bounded(seconds: Double) -> Duration {
        .milliseconds(Int(min(max(0, seconds), maxDelay.inSeconds) * 1000))
    }
}
