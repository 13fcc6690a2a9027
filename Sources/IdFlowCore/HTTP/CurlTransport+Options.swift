internal import CCurl
import Foundation

extension CurlTransport {
    /// What a company network needs from the transport, set on every request. Each nil leaves libcurl's
    /// default: the system trust store (Debian's libcurl: `/etc/ssl/certs/ca-certificates.crt` and
    /// `/etc/ssl/certs`), no client certificate, and the proxy from `https_proxy`/`HTTPS_PROXY`,
    /// `http_proxy` and `no_proxy`/`NO_PROXY`, as libcurl reads them.
    ///
    /// There is deliberately no option to switch certificate verification off.
    public struct Options: Sendable, Equatable, CustomStringConvertible {
        /// A PEM bundle of CA certificates (CURLOPT_CAINFO). It replaces the default bundle file, while the
        /// default certificate directory stays in use unless `caDirectory` replaces it too.
        public var caFile: String?
        /// A directory of hashed CA certificates (CURLOPT_CAPATH).
        public var caDirectory: String?
        /// A PEM client certificate (CURLOPT_SSLCERT), and its key if the file holds no key (`clientKey`).
        public var clientCertificate: String?
        public var clientKey: String?
        /// A proxy URL (`http://host:port`, `https://…`, `socks5://…`); credentials may be inside it or in
        /// `proxyCredentials`. The empty string means no proxy, whatever the environment says.
        public var proxy: String?
        public var proxyCredentials: ProxyCredentials?
        /// Hosts reached without the proxy, comma-separated, as in `NO_PROXY`.
        public var noProxy: String?

        public init(
            caFile: String? = nil, caDirectory: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil,
            proxy: String? = nil, proxyCredentials: ProxyCredentials? = nil, noProxy: String? = nil
        ) {
            self.caFile = caFile
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
            if let caDirectory { parts.append("caDirectory=\(caDirectory)") }
            if let clientCertificate { parts.append("clientCertificate=\(clientCertificate)") }
            if let clientKey { parts.append("clientKey=\(clientKey)") }
            if let proxy { parts.append("proxy=\(Self.withoutPassword(proxy))") }
            if proxyCredentials != nil { parts.append("proxyCredentials=<redacted>") }
            if let noProxy { parts.append("noProxy=\(noProxy)") }
            return "Options(\(parts.joined(separator: ", ")))"
        }

        /// The proxy URL with any password in it replaced, for messages and traces.
        static func withoutPassword(_ proxy: String) -> String {
            guard var components = URLComponents(string: proxy), components.password != nil else { return proxy }
            components.password = "redacted"
            return components.string ?? "<proxy>"
        }

        func apply(to transfer: CurlTransfer) throws {
            if let caFile { try transfer.set(CURLOPT_CAINFO, caFile) }
            if let caDirectory { try transfer.set(CURLOPT_CAPATH, caDirectory) }
            if let clientCertificate { try transfer.set(CURLOPT_SSLCERT, clientCertificate) }
            if let clientKey { try transfer.set(CURLOPT_SSLKEY, clientKey) }
            if let proxy { try transfer.set(CURLOPT_PROXY, proxy) }
            if let proxyCredentials {
                try transfer.set(CURLOPT_PROXYUSERNAME, proxyCredentials.username)
                try transfer.set(CURLOPT_PROXYPASSWORD, proxyCredentials.password)
            }
            if let noProxy { try transfer.set(CURLOPT_NOPROXY, noProxy) }
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
