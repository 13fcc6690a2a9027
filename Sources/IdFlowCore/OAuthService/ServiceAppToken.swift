import Foundation
import IdFlowFoundation

/// A service app's access token as cached between runs, with what it was got for: a token is reused only for
/// the same org, client, scopes and DPoP choice, and the DPoP key it is bound to is kept with it (a bound token
/// is useless without its key). Kept 0600 in the profile's state directory, like the profile's own tokens.
public struct ServiceAppToken: Codable, Sendable, Equatable {
    public var orgURL: String
    public var clientID: String
    /// The scopes asked for (the cache key); `scope` is what the server granted.
    public var requestedScopes: [String]
    public var tokenType: String
    public var accessToken: String
    public var scope: String?
    public var expiresAt: Date
    /// The DPoP key (`DPoPKey.stored`) a DPoP-bound token is bound to.
    public var dpopKey: String?
    /// The token endpoint's latest DPoP nonce, so the next run's first token request is not challenged again.
    public var dpopNonce: String?
    /// Whether the token was asked for with a DPoP proof: an app that does not require DPoP answers Bearer to one
    /// (okta-core.md §H4), and that answer serves later DPoP runs as well as a bound token would.
    public var dpopRequested: Bool?

    /// Whether this token can serve a request made now for `wanted`: same org, client, scopes and DPoP choice,
    /// and good for more than `margin` (Okta's SDKs renew five minutes early, so a command never starts with a
    /// token that runs out half-way).
    func serves(orgURL: URL, clientID: String, scopes: [String], dpop: Bool, now: Date, margin: TimeInterval = 300) -> Bool {
        self.orgURL == orgURL.absoluteString && self.clientID == clientID && requestedScopes == scopes
            && (dpopRequested ?? false) == dpop && (tokenType.lowercased() != "dpop" || key != nil)
            && expiresAt.timeIntervalSince(now) > margin
    }

    var key: DPoPKey? { dpopKey.flatMap(DPoPKey.init(stored:)) }
}

/// `{state}/profiles/{profile}/service-apps/{client id}.json` (0600 in 0700 folders, written atomically) and its
/// lock, so concurrent runs of one profile make one token request between them.
struct ServiceAppTokenCache: Sendable {
    let directory: URL
    let clientID: String

    init(profileDirectory: URL, clientID: String) {
        directory = profileDirectory.appendingPathComponent("service-apps", isDirectory: true)
        self.clientID = clientID
    }

    /// The client id as a file name: ids are `0oa…` letters and digits, but nothing from configuration may name a path.
    private var name: String {
        let safe = clientID.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0) ? Character($0) : "_"
        }
        return String(safe)
    }

    var file: URL { directory.appendingPathComponent("\(name).json") }
    var lockFile: URL { directory.appendingPathComponent("\(name).lock") }

    /// The cached token; a file that cannot be read as one is treated as absent (it holds nothing that cannot be
    /// got again), unlike the profile's tokens, which may hold the only refresh token.
    func load() throws(IdFlowError) -> ServiceAppToken? {
        guard let data = try SecureFile.read(file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(ServiceAppToken.self, from: data)
    }

    func save(_ token: ServiceAppToken) throws(IdFlowError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(token)
        } catch {
            throw .internalFailure("cannot encode the service app token: \(error)")
        }
        try SecureFile.write(data, to: file)
    }

    func clear() throws(IdFlowError) { try SecureFile.remove(file) }

    /// The cache's lock; the holder releases it.
    func lock() async throws(IdFlowError) -> FileLock {
        try StateDirectory.ensure(directory)
        return try await FileLock.acquire(lockFile, timeout: .seconds(120))
    }
}
