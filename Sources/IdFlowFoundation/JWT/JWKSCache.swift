import Crypto
import Foundation

/// The issuer's signing keys fetched from its `jwks_uri` and cached in the state directory, so validating a
/// token does not cost a request each time.
///
/// The cache file is `cacheDirectory/jwks-<hex sha256 of jwksURI>.json`, written atomically with mode 0600 in a
/// 0700 directory, holding `{"fetchedAt", "uri", "jwks"}`. A cache file that cannot be read, does not parse,
/// names another URI or is older than `ttl` is ignored and the keys are fetched again; failing to write the
/// cache is not an error either, since the keys just fetched are still good.
public struct JWKSCache: SigningKeySource {
    public let http: HTTPClient
    public let jwksURI: URL
    /// nil disables caching: every call fetches.
    public let cacheDirectory: URL?
    public let ttl: Duration
    public let now: @Sendable () -> Date

    public init(
        http: HTTPClient, jwksURI: URL, cacheDirectory: URL?, ttl: Duration = .seconds(3600),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.http = http
        self.jwksURI = jwksURI
        self.cacheDirectory = cacheDirectory
        self.ttl = ttl
        self.now = now
    }

    /// The file the key set is cached in, nil when caching is off.
    public var cacheFile: URL? {
        guard let cacheDirectory else { return nil }
        let digest = SHA256.hash(data: Data(jwksURI.absoluteString.utf8))
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        return cacheDirectory.appendingPathComponent("jwks-\(hex).json")
    }

    public func keySet(refresh: Bool) async throws(IdFlowError) -> Data {
        if !refresh, let cached = cachedKeySet() {
            return cached
        }
        let keySet = try await http.send(JWKSRequest(jwksURI: jwksURI))
        store(keySet)
        return keySet
    }

    /// What is cached on disk; `fetchedAt` is seconds since 1970 (like a JWT NumericDate), kept with its
    /// fraction so a freshly written entry never looks as if it came from the future.
    private struct Entry: Codable {
        var fetchedAt: Date
        var uri: String
        var jwks: JSONValue
    }

    private func cachedKeySet() -> Data? {
        guard let file = cacheFile, let data = try? SecureFile.read(file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let entry = try? decoder.decode(Entry.self, from: data), entry.uri == jwksURI.absoluteString else { return nil }
        // A fetch time in the future means the clock moved backwards; the age is unknown, so fetch again.
        let age = now().timeIntervalSince(entry.fetchedAt)
        let ttlSeconds = ttl.inSeconds
        guard age >= 0, age < ttlSeconds else { return nil }
        guard let keys = try? JSONEncoder().encode(entry.jwks), (try? JSONWebKeySet(data: keys, source: file.path)) != nil else {
            return nil
        }
        return keys
    }

    private func store(_ jwks: Data) {
        guard let file = cacheFile, let document = try? JSONValue(data: jwks) else { return }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Entry(fetchedAt: now(), uri: jwksURI.absoluteString, jwks: document)) else { return }
        try? SecureFile.write(data, to: file)
    }
}
