import Foundation

/// Scheme, host and port of a URL (RFC 6454): where a token may be sent, and where it may not follow a redirect.
public struct ResourceOrigin: Sendable, Equatable {
    public var scheme: String
    public var host: String
    public var port: Int

    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    }
}
