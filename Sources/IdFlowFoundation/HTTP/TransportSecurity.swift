import Foundation

/// Decides which URLs idflow may send credentials to: https anywhere, plain http only on loopback,
/// where the traffic never leaves the machine.
public enum TransportSecurity {
    /// Whether `host` is a literal loopback address (127.0.0.0/8, ::1) or exactly `localhost`. Names under
    /// `.localhost` are treated as remote: a resolver is free to send them anywhere, and only a literal
    /// address or the one name every system pins to loopback keeps plain http on the machine.
    public static func isLoopback(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }

    /// Throws unless `url` is https, or http to a loopback host.
    public static func check(_ url: URL) throws(IdFlowError) {
        switch url.scheme?.lowercased() {
        case "https":
            return
        case "http":
            if let host = url.host, isLoopback(host: host) { return }
            throw .insecureURL(url.absoluteString)
        default:
            throw .invalidInput("unsupported URL scheme in \(url.absoluteString)", hint: "use an https:// URL")
        }
    }
}
