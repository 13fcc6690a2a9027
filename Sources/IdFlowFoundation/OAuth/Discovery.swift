import Crypto
import Foundation

/// Fetches and caches discovery documents; the cache (a short TTL, in the state dir) saves a round trip on
/// every command while still following a provider that moves its endpoints.
public struct Discovery: Sendable {
    public var http: HTTPClient
    public var cacheDirectory: URL?
    public var ttl: Duration
    public var now: @Sendable () -> Date

    public init(http: HTTPClient, cacheDirectory: URL?, ttl: Duration = .seconds(900), now: @escaping @Sendable () -> Date = { Date() }) {
        self.http = http
        self.cacheDirectory = cacheDirectory
        self.ttl = ttl
        self.now = now
    }

    private struct CacheEntry: Codable {
        var fetchedAt: Date
        var configuration: OpenIDConfiguration
    }

    /// The discovery document for `issuer`, whose `issuer` member must equal it exactly (OIDC Discovery §4.3),
    /// and whose endpoints must be https (or loopback http).
    public func configuration(for issuer: URL) async throws(IdFlowError) -> OpenIDConfiguration {
        let cacheFile = cacheDirectory?.appendingPathComponent("discovery-\(Self.digest(issuer.absoluteString)).json")
        if let cacheFile, let cached = try? SecureFile.read(cacheFile),
            let entry = try? JSONDecoder().decode(CacheEntry.self, from: cached),
            entry.configuration.issuer == issuer.absoluteString,
            now().timeIntervalSince(entry.fetchedAt) < ttl.inSeconds, entry.fetchedAt <= now()
        {
            return entry.configuration
        }
        let configuration = try await http.send(OpenIDConfigurationRequest(issuer: issuer))
        if let cacheFile {
            if let data = try? JSONEncoder().encode(CacheEntry(fetchedAt: now(), configuration: configuration)) {
                // A cache that cannot be written only costs a request next time.
                try? SecureFile.write(data, to: cacheFile)
            }
        }
        return configuration
    }

    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}
