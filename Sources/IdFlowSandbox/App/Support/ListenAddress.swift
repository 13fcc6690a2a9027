/// Who can reach the sandbox at the address it listens on. Its API token, client secret and users are there for
/// anyone who can connect (and, without `--tls`, for anyone on the path), so it is meant for loopback; another
/// address is allowed (a container's published port needs one) but said out loud, since `orgUrl` still names
/// loopback.
public enum ListenAddress {
    /// Whether only this machine can connect to `host`: `localhost`, 127.0.0.0/8 or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let name = unbracketed(host).lowercased()
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        return octets.count == 4 && octets.allSatisfy { $0 != nil } && octets[0] == 127
    }

    /// Whether `host` is the wildcard address that listens on every interface (`0.0.0.0`, `::`).
    public static func isEveryInterface(_ host: String) -> Bool {
        ["", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"].contains(unbracketed(host))
    }

    /// The line `idflow sandbox` writes on stderr before it listens on `host`; nil for a loopback address. TLS
    /// protects the traffic, not the sandbox: its API token is printed and its users are test users.
    public static func warning(host: String, tls: Bool = false) -> String? {
        guard !isLoopback(host) else { return nil }
        let reach = isEveryInterface(host) ? "every interface (\(host))" : "\(host), which is not a loopback address"
        let traffic = tls ? "" : "It has no TLS (--tls adds it), and "
        return "warning: the sandbox listens on \(reach). \(traffic)\(tls ? "A" : "a")nyone who can reach it can use its API "
            + "token, clients and users; --host 127.0.0.1 keeps it to this machine."
    }

    /// `host:port`, with an IPv6 address in brackets, as a client would write it.
    static func hostAndPort(_ host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
