import Foundation

/// The origin of a URL (RFC 6454 §4): scheme, host and port, normalised once, so that every "may this token, proof
/// or password go to that URL" decision compares the same thing. Scheme and host are lowercased, a trailing dot
/// on the host is dropped (`example.com.` is `example.com`), IPv6 brackets are removed, the default port of http
/// and https is made explicit, and userinfo, path, query and fragment are ignored. Two URLs may share a token
/// exactly when their origins are equal.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    /// The port, the scheme's default (80, 443) when the URL gives none; nil for another scheme without one.
    public let port: Int?

    /// nil for a URL without a scheme or host (a relative reference, `mailto:`).
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty, let rawHost = url.host, !rawHost.isEmpty else { return nil }
        var host = rawHost.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? Self.defaultPort(scheme)
    }

    public init?(string: String) {
        guard let url = URL(string: string) else { return nil }
        self.init(url)
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }

    /// The port when it is not the scheme's default: the one a URL or a folder name must write out.
    public var nonDefaultPort: Int? {
        port.flatMap { $0 == Self.defaultPort(scheme) ? nil : $0 }
    }

    /// `scheme://host[:port]`, the port written only when it is not the scheme's default and IPv6 in brackets:
    /// the URL of the origin itself, with no path (what `aud` of a device JWT and a folder of the state name).
    public var description: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(nonDefaultPort.map { ":\($0)" } ?? "")"
    }

    /// The origin as a URL with an empty path.
    public var url: URL {
        // Scheme, host and port came from a parsed URL, so the text is one too.
        URL(string: description)!
    }
}
