import Foundation

/// The transport of a real run: `CurlTransport`, or `URLSessionTransport` when `IDFLOW_HTTP_TRANSPORT` is
/// `urlsession`. That variable is a benchmarking switch (to measure one stack against the other on the same
/// build) while the HTTP stack is being settled, not a user setting; any other value means libcurl.
public enum StandardTransport {
    public static let environmentVariable = "IDFLOW_HTTP_TRANSPORT"

    /// `options` (CA file, client certificate, proxy) and `notes` (`--verbose` lines about the proxy and the
    /// server certificate) reach libcurl only: URLSession on Linux has no way to set or report them.
    public static func make(
        options: CurlTransport.Options = CurlTransport.Options(), notes: (@Sendable (String) -> Void)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any HTTPTransport {
        environment[environmentVariable]?.lowercased() == "urlsession"
            ? URLSessionTransport() : CurlTransport(options: options, notes: notes)
    }
}
