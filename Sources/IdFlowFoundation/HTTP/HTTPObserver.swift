import Foundation

/// Watches every exchange an `HTTPClient` makes, in order: `--curl`'s script (`CurlScript`, in the Replay family)
/// is the one idflow has. The HTTP layer calls it and knows nothing of what it writes.
public protocol HTTPObserver: Sendable {
    /// A request about to be sent for the first time (retries are not announced again); returns its step number.
    func request(_ request: HTTPRequest) -> Int
    /// The answer to step `step`; `retried` when the client sends the request again after it.
    func answer(_ step: Int, _ response: HTTPResponse, retried: Bool)
    /// Step `step` got no answer, for `reason`.
    func failure(_ step: Int, reason: String)
}

/// Where `--curl` (standard error) or `--curl-file PATH` sends the script of a run.
public enum CurlScriptOutput: Sendable, Equatable {
    case standardError
    case file(String)
}
