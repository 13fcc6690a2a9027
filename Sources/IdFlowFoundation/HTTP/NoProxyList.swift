import Foundation

/// `NO_PROXY` as idflow reads it, the one place that decides whether a request skips the proxy. libcurl is told
/// the outcome per request (the proxy, or none) rather than the list, because its own reading differs: libcurl
/// 7.88 takes `*` only as the whole list and knows no `*.example.com`, so with such a list it sent requests (and
/// the proxy's credentials) through a proxy that idflow had said was skipped.
///
/// Entries, comma-separated, case-insensitive, as curl, Go and Python read them: `*` (every host); a domain
/// (`example.com`, `.example.com` or `*.example.com`: that host and every host under it); an IP address; a CIDR
/// block (`10.0.0.0/8`, `fd00::/8`), matched against a host that is an IP literal. A `:port` after a name or an
/// IPv4 address is ignored, as Go ignores it.
struct NoProxyList: Sendable, Equatable {
    private var entries: [Substring]

    init(_ list: String?) {
        entries = (list ?? "").split(separator: ",").map { Substring($0.trimmingCharacters(in: .whitespaces).lowercased()) }
            .filter { !$0.isEmpty }
    }

    /// True when a request to `host` goes direct.
    func exempts(host rawHost: String) -> Bool {
        let host = rawHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return entries.contains { entry in
            if entry == "*" { return true }
            if entry.contains("/") { return Self.block(entry, contains: host) }
            let pattern = Self.withoutPort(Self.withoutWildcard(entry))
            return !pattern.isEmpty && (host == pattern || host.hasSuffix("." + pattern))
        }
    }

    private static func withoutWildcard(_ entry: Substring) -> Substring {
        if entry.hasPrefix("*.") { return entry.dropFirst(2) }
        if entry.hasPrefix(".") { return entry.dropFirst() }
        return entry
    }

    /// `host:port` → `host`; `[v6]:port` and `[v6]` → `v6`; a bare IPv6 address is left whole.
    private static func withoutPort(_ pattern: Substring) -> String {
        if pattern.hasPrefix("["), let close = pattern.firstIndex(of: "]") {
            return String(pattern[pattern.index(after: pattern.startIndex)..<close])
        }
        if let colon = pattern.lastIndex(of: ":"), pattern.filter({ $0 == ":" }).count == 1 { return String(pattern[..<colon]) }
        return String(pattern)
    }

    /// Whether the IP literal `host` lies in the CIDR block `entry` (`address/bits`); a name never does.
    private static func block(_ entry: Substring, contains host: String) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let bits = Int(parts[1]), let network = address(String(parts[0])), let candidate = address(host),
            network.count == candidate.count, bits >= 0, bits <= network.count * 8
        else { return false }
        for index in 0..<network.count {
            let remaining = bits - index * 8
            if remaining <= 0 { break }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if network[index] & mask != candidate[index] & mask { return false }
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 literal, nil for anything else.
    private static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
