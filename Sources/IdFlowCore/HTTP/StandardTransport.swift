import Foundation

/// The transport of a real run: `CurlTransport`, or `URLSessionTransport` when `IDFLOW_HTTP_TRANSPORT` is
/// `urlsession`. That variable is a benchmarking switch (to measure one stack against the other on the same
/// build) while the HTTP stack is being settled, not a user setting; any other value means libcurl.
public enum StandardTransport {
    public static let environmentVariable = "IDFLOW_HTTP_TRANSPORT"

    /// `options` (CA file, client certificate, proxy) reach libcurl only: URLSession on Linux has no way to set them.
    public static func make(
        options: CurlTransport.Options = CurlTransport.Options(), environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any HTTPTransport {
        environment[environmentVariable]?.lowercased() == "urlsession" ? URLSessionTransport() : CurlTransport(options: options)
    }
}
