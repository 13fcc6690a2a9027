import Foundation

/// Name/value pairs from a query string or an `application/x-www-form-urlencoded` body.
///
/// One parser serves both because OAuth sends the same parameters either way (`/authorize` in the
/// query, `/token` in the body); `+` means a space in both, as browsers and Okta's servers treat it.
struct FormParameters: Sendable {
    private(set) var pairs: [(name: String, value: String)]

    init(_ encoded: String?) {
        pairs = (encoded ?? "").split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(pieces[0])
            let value = pieces.count > 1 ? Self.decode(pieces[1]) : ""
            return (name, value)
        }
    }

    /// The first value of `name`, or nil when absent.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value sent for `name` (OAuth rejects repeated parameters, so callers can check).
    func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// `?sendEmail=false`-style booleans: lowercase `true`/`false`; anything else gives the default.
    func bool(_ name: String, default defaultValue: Bool) -> Bool {
        switch self[name]?.lowercased() {
        case "true": return true
        case "false": return false
        default: return defaultValue
        }
    }

    /// Encodes pairs for a URL query or form body (RFC 3986 unreserved characters stay as they are).
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ string: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
    }

    private static func decode(_ raw: Substring) -> String {
        // Tokens, ids and grant types are sent as they are: nothing to decode.
        if !raw.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return String(raw) }
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
