import Foundation

/// RFC 3986 §6.2.2 syntax-based normalisation of an absolute http(s) URL, so that two spellings of one URL compare
/// equal. One implementation for both sides of a DPoP proof and a client assertion: idflow signs `htu`/`aud` in this
/// form (`NormalizedURI`) and the sandbox compares them in it (its org URL and aliases): scheme and host in lower case, the scheme's default port dropped, `.` and `..` segments removed (§5.2.4),
/// an empty path written `/`, percent-encodings in upper case, the fragment left out. A URL with user info or
/// without a host is no URL a client may name for the sandbox, and has no normal form.
public enum URINormalization {
    public static func normalized(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), components.user == nil, components.password == nil,
            var host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        var result = scheme + "://" + host
        if let port = components.port, port != (scheme == "https" ? 443 : 80) { result += ":\(port)" }
        let path = removingDotSegments(upperCasingEscapes(components.percentEncodedPath))
        result += path.isEmpty ? "/" : path
        if let query = components.percentEncodedQuery { result += "?" + upperCasingEscapes(query) }
        return result
    }

    /// Whether `text` is a host alone (a name, an IPv4 address or a bracketed IPv6 one): no scheme, port, path or
    /// user info.
    public static func isHost(_ text: String) -> Bool {
        guard let components = URLComponents(string: "http://\(text)/"), components.port == nil else { return false }
        return normalized("http://\(text)/") == "http://\(text.lowercased())/"
    }

    /// RFC 3986 §5.2.4, for an absolute path.
    public static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return path.hasPrefix("/") || !output.isEmpty ? "/" + output.joined(separator: "/") : ""
    }

    /// `%2f` → `%2F` (§6.2.2.1).
    private static func upperCasingEscapes(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var result = ""
        var pending = 0
        for character in text {
            if character == "%" {
                pending = 2
                result.append(character)
            } else if pending > 0 {
                pending -= 1
                result += character.uppercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
