import Foundation

/// A URL as RFC 3986 §6.2.2–6.2.3 normalises it, without user info, query and fragment: scheme and host in lower
/// case, the scheme's default port dropped, dot segments removed, an empty path as "/". It is the URI a DPoP proof's
/// `htu` and a client assertion's `aud` name (RFC 9449 §4.2–4.3), and it must be the one libcurl sends: libcurl
/// removes dot segments before it sends a path, so `HTTP://h/a/../b` is a request for `http://h/b`.
enum NormalizedURI {
    static func of(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme?.lowercased(),
            let host = components.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return url.absoluteString }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let path = removingDotSegments(components.percentEncodedPath)
        return "\(scheme)://\(bracketed)\(port)\(path.isEmpty ? "/" : path)"
    }

    /// RFC 3986 §5.2.4, segment by segment: "." goes, ".." takes the segment before it with it.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
