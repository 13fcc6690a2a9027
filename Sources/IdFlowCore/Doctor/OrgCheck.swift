import Foundation
import IdFlowFoundation

/// The org: DNS, TCP, TLS (the certificate chain verified, its names and expiry) and an HTTP answer with its
/// latency, over the project's one transport (libcurl, with the configured CA file, client certificate and
/// proxy). A fresh transport, so the handshake happens here and its certificate can be named.
enum OrgCheck {
    /// A certificate that expires sooner than this is a warning.
    static let expiryWarning: TimeInterval = 14 * 24 * 3600

    static func run(configuration: Configuration, timeout: Duration) async -> DoctorCheck {
        let target: URL
        do throws(IdFlowError) {
            target = try configuration.orgURL != nil ? configuration.requireOrgURL() : origin(of: configuration.requireIssuer())
        } catch {
            return .failed("org", error)
        }
        let notes = Locked<[String]>([])
        let transport = CurlTransport(options: configuration.transportOptions, notes: { line in notes.withLock { $0.append(line) } })
        let http = HTTPClient(transport: transport, timeout: timeout, retryPolicy: RetryPolicy(maxRetries: 0))
        let proxy = configuration.transportOptions.proxy.map { "through proxy \(CurlTransport.Options.withoutPassword($0))" } ?? "no proxy"
        let started = ContinuousClock.now
        let response: HTTPResponse
        do throws(IdFlowError) {
            response = try await http.send(.get(target))
        } catch {
            var check = DoctorCheck.failed("org", error)
            check.detail += " (\(proxy))"
            return check
        }
        let milliseconds = Int(((ContinuousClock.now - started).inSeconds * 1000).rounded())
        let secure = target.scheme?.lowercased() == "https"
        var parts = [
            secure ? "DNS, TCP and TLS ok" : "DNS and TCP ok (plain http to loopback: no TLS)",
            "GET \(target.absoluteString) answered \(response.status) in \(milliseconds) ms", proxy,
        ]
        let certificate = notes.withLock { $0 }.first { $0.hasPrefix("TLS certificate") }
        if let certificate { parts.append(certificate) }
        let detail = parts.joined(separator: "; ")
        if let certificate, let expiry = notAfter(certificate), expiry.timeIntervalSinceNow < expiryWarning {
            return DoctorCheck("org", .warn, detail, fix: "the server certificate expires on \(expiry.formatted(.iso8601)): renew it")
        }
        if response.status >= 500 {
            return DoctorCheck("org", .warn, detail, fix: "the org answered with a server error; try again later or check the org's status")
        }
        return DoctorCheck("org", .ok, detail)
    }

    static func origin(of url: URL) -> URL { Origin(url)?.url ?? url }

    /// The "valid until" instant of a certificate line (`TLSPeer.summary`).
    static func notAfter(_ line: String) -> Date? {
        guard let range = line.range(of: "valid until ") else { return nil }
        let text = line[range.upperBound...].prefix { $0 != ";" }
        return ISO8601.date(String(text))
    }
}
