internal import CCurl
import Foundation

extension CurlTransport {
    /// What a company network needs from the transport, set on every request. Each nil leaves the default:
    /// the system trust store (Debian's libcurl: `/etc/ssl/certs/ca-certificates.crt` and `/etc/ssl/certs`),
    /// no client certificate, no proxy (`ConfigurationResolver` reads `HTTPS_PROXY` and the rest into `proxy`).
    ///
    /// There is deliberately no option to switch certificate verification off.
    public struct Options: Sendable, Equatable, CustomStringConvertible {
        /// A PEM bundle of CA certificates trusted besides the system's (`--ca-file`): the two are handed to
        /// libcurl as one bundle, since libcurl's own CA file option would replace the system bundle.
        public var caFile: String?
        /// A PEM bundle that replaces the system bundle (`SSL_CERT_FILE`, as OpenSSL, Go and Python read it).
        public var systemCAFile: String?
        /// A directory of hashed CA certificates (`SSL_CERT_DIR`, CURLOPT_CAPATH).
        public var caDirectory: String?
        /// A PEM client certificate (CURLOPT_SSLCERT), and its key if the file holds no key (`clientKey`).
        public var clientCertificate: String?
        public var clientKey: String?
        /// A proxy URL (`http://host:port`, `https://…`, `socks5://…`); credentials may be inside it or in
        /// `proxyCredentials`. Nil or empty means no proxy: libcurl's own reading of the environment is
        /// switched off, so the proxy in use is always the one idflow resolved (and can name in `--verbose`).
        public var proxy: String?
        public var proxyCredentials: ProxyCredentials?
        /// Hosts reached without the proxy, comma-separated, as in `NO_PROXY`; loopback never goes through one.
        public var noProxy: String?

        public init(
            caFile: String? = nil, systemCAFile: String? = nil, caDirectory: String? = nil, clientCertificate: String? = nil,
            clientKey: String? = nil, proxy: String? = nil, proxyCredentials: ProxyCredentials? = nil, noProxy: String? = nil
        ) {
            self.caFile = caFile
            self.systemCAFile = systemCAFile
            self.caDirectory = caDirectory
            self.clientCertificate = clientCertificate
            self.clientKey = clientKey
            self.proxy = proxy
            self.proxyCredentials = proxyCredentials
            self.noProxy = noProxy
        }

        /// Names what is set, never the proxy's credentials (nor a password inside the proxy URL).
        public var description: String {
            var parts: [String] = []
            if let caFile { parts.append("caFile=\(caFile)") }
            if let systemCAFile { parts.append("systemCAFile=\(systemCAFile)") }
            if let caDirectory { parts.append("caDirectory=\(caDirectory)") }
            if let clientCertificate { parts.append("clientCertificate=\(clientCertificate)") }
            if let clientKey { parts.append("clientKey=\(clientKey)") }
            if let proxy { parts.append("proxy=\(Self.withoutPassword(proxy))") }
            if proxyCredentials != nil { parts.append("proxyCredentials=<redacted>") }
            if let noProxy { parts.append("noProxy=\(noProxy)") }
            return "Options(\(parts.joined(separator: ", ")))"
        }

        /// The proxy URL with its user info masked (`Redactor.userInfo`), for messages and traces.
        public static func withoutPassword(_ proxy: String) -> String { Redactor.userInfo(proxy) }

        /// The proxy a request to `url` goes through, nil when none is set or the host is exempt: loopback never
        /// goes through one (the sandbox, a browser redirect's listener), whatever `NO_PROXY` says, as Go's and
        /// Python's HTTP clients treat it; other hosts as `NoProxyList` decides. libcurl is handed this decision.
        public func proxy(for url: URL?) -> String? {
            guard let proxy, !proxy.isEmpty, let host = url?.host?.lowercased() else { return nil }
            if TransportSecurity.isLoopback(host: host) || NoProxyList(noProxy).exempts(host: host) { return nil }
            return proxy
        }

        /// The system bundle and `caFile` as one PEM bundle, or nil when there is no `caFile`; a file that
        /// cannot be read is an error naming it. The system bundle is `systemCAFile`, else libcurl's default.
        func trustBundle(systemDefault: String?) throws(TransportFailure) -> Data? {
            guard let caFile else { return nil }
            guard let extra = InputFile.read(exactly: caFile) else {
                throw TransportFailure(.secureConnectionFailed, reason: "cannot read the CA bundle \(caFile) (--ca-file / IDFLOW_CA_FILE)")
            }
            var bundle = (systemCAFile ?? systemDefault).flatMap { InputFile.read(exactly: $0) } ?? Data()
            bundle.append(contentsOf: Array("\n".utf8))
            bundle.append(extra)
            return bundle
        }

        func apply(to transfer: CurlTransfer, url: URL, trustBundle: Data?) throws {
            if let trustBundle {
                try transfer.set(CURLOPT_CAINFO_BLOB, blob: trustBundle)
                try transfer.set(CURLOPT_PROXY_CAINFO_BLOB, blob: trustBundle)
            } else if let systemCAFile {
                try transfer.set(CURLOPT_CAINFO, systemCAFile)
                try transfer.set(CURLOPT_PROXY_CAINFO, systemCAFile)
            }
            if let caDirectory {
                try transfer.set(CURLOPT_CAPATH, caDirectory)
                try transfer.set(CURLOPT_PROXY_CAPATH, caDirectory)
            }
            if let clientCertificate { try transfer.set(CURLOPT_SSLCERT, clientCertificate) }
            if let clientKey { try transfer.set(CURLOPT_SSLKEY, clientKey) }
            // The proxy idflow decided on for this URL, or none; libcurl's own NO_PROXY reading (of the option or of
            // the environment) is switched off by an empty list, so it cannot decide differently.
            let proxy = proxy(for: url)
            try transfer.set(CURLOPT_PROXY, proxy ?? "")
            try transfer.set(CURLOPT_NOPROXY, "")
            if proxy != nil {
                // CONNECT for every request, so a proxy sees only host names and a 407 always comes the same way.
                try transfer.set(CURLOPT_HTTPPROXYTUNNEL, 1)
                if let proxyCredentials {
                    try transfer.set(CURLOPT_PROXYUSERNAME, proxyCredentials.username)
                    try transfer.set(CURLOPT_PROXYPASSWORD, proxyCredentials.password)
                }
            }
        }
    }

    /// A proxy's user name and password, given apart from the URL so that neither needs percent-encoding.
    public struct ProxyCredentials: Sendable, Equatable, CustomStringConvertible {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        public var description: String { "ProxyCredentials(username: \(username), password: <redacted>)" }
    }
}
