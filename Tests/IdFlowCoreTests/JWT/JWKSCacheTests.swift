import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct JWKSCacheTests {
    static let jwksURI = URL(string: "https://example.okta.com/oauth2/default/v1/keys")!
    static let firstSet = #"{"keys":[{"kty":"RSA","kid":"k1","alg":"RS256","use":"sig","e":"AQAB","n":"AAAA"}]}"#
    static let secondSet = #"{"keys":[{"kty":"RSA","kid":"k2","alg":"RS256","use":"sig","e":"AQAB","n":"BBBB"}]}"#

    /// A fresh state-dir-like folder (not yet created, so the cache has to create it) and a clock the test moves.
    struct Setup {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-jwks-\(UUID().uuidString)/cache")
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))

        func cache(_ transport: ScriptedTransport, directory: URL?? = .none, ttl: Duration = .seconds(3600)) -> JWKSCache {
            let clock = self.clock
            return JWKSCache(
                http: TestKeys.client(transport), jwksURI: JWKSCacheTests.jwksURI, cacheDirectory: directory ?? self.directory, ttl: ttl,
                now: { clock.current })
        }

        func advance(_ seconds: TimeInterval) {
            clock.withLock { $0 = $0.addingTimeInterval(seconds) }
        }

        func removeAll() {
            try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
        }
    }

    static func mode(_ url: URL) -> mode_t {
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        return info.st_mode & 0o777
    }

    static func keyIDs(_ data: Data) throws -> [String] {
        try JSONValue(data: data)["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } ?? []
    }

    @Test func theSecondCallIsServedFromAPrivateCacheFile() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, Self.firstSet)])
        let cache = setup.cache(transport)
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k1"])
        setup.advance(3599)
        #expect(
            try Self.keyIDs(
                await JWKSCache(
                    http: TestKeys.client(transport), jwksURI: Self.jwksURI, cacheDirectory: setup.directory, now: { setup.clock.current }
                ).keySet(refresh: false)) == ["k1"])
        #expect(transport.requests.count == 1)

        let digest = SHA256.hash(data: Data(Self.jwksURI.absoluteString.utf8)).map { String(format: "%02x", $0) }.joined()
        let file = setup.directory.appendingPathComponent("jwks-\(digest).json")
        #expect(cache.cacheFile == file)
        #expect(Self.mode(file) == 0o600)
        #expect(Self.mode(setup.directory) == 0o700)
        let entry = try JSONValue(data: Data(contentsOf: file))
        #expect(entry["uri"] == .string(Self.jwksURI.absoluteString))
        #expect(entry["fetchedAt"] == 1_800_000_000)
        #expect(entry["jwks"] == (try JSONValue(data: Data(Self.firstSet.utf8))))
    }

    @Test func anExpiredCacheIsFetchedAgain() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, Self.firstSet), .json(200, Self.secondSet)])
        let cache = setup.cache(transport, ttl: .seconds(600))
        _ = try await cache.keySet(refresh: false)
        setup.advance(600)
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k2"])
        #expect(transport.requests.count == 2)
        // The refetched set replaced the cached one.
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k2"])
        #expect(transport.requests.count == 2)
    }

    @Test func refreshBypassesAFreshCache() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, Self.firstSet), .json(200, Self.secondSet)])
        let cache = setup.cache(transport)
        _ = try await cache.keySet(refresh: false)
        #expect(try Self.keyIDs(await cache.keySet(refresh: true)) == ["k2"])
        #expect(transport.requests.count == 2)
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k2"])
        #expect(transport.requests.count == 2)
    }

    @Test(arguments: [
        "not json at all", #"{"fetchedAt":1800000000,"uri":"https://example.okta.com/oauth2/default/v1/keys","jwks":{"nokeys":[]}}"#, "",
    ])
    func aCorruptCacheFileIsIgnoredAndReplaced(content: String) async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, Self.firstSet)])
        let cache = setup.cache(transport)
        let file = try #require(cache.cacheFile)
        try SecureFile.write(Data(content.utf8), to: file)
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k1"])
        #expect(transport.requests.count == 1)
        #expect(try JSONValue(data: Data(contentsOf: file))["jwks"]?["keys"] != nil)
    }

    @Test func aCacheFileOthersCanReadIsIgnored() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, Self.firstSet), .json(200, Self.secondSet)])
        let cache = setup.cache(transport)
        _ = try await cache.keySet(refresh: false)
        let file = try #require(cache.cacheFile)
        #expect(chmod(file.path, 0o644) == 0)
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k2"])
        #expect(Self.mode(file) == 0o600)
    }

    @Test func aCacheWrittenForAnotherURIIsIgnored() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, Self.firstSet)])
        let cache = setup.cache(transport)
        let planted = #"{"fetchedAt":1800000000,"uri":"https://evil.example.com/keys","jwks":\#(Self.secondSet)}"#
        try SecureFile.write(Data(planted.utf8), to: try #require(cache.cacheFile))
        #expect(try Self.keyIDs(await cache.keySet(refresh: false)) == ["k1"])
        #expect(transport.requests.count == 1)
    }

    @Test func withoutADirectoryEveryCallFetches() async throws {
        let setup = Setup()
        let transport = ScriptedTransport([.json(200, Self.firstSet), .json(200, Self.secondSet)])
        let cache = setup.cache(transport, directory: .some(nil))
        #expect(cache.cacheFile == nil)
        _ = try await cache.keySet(refresh: false)
        _ = try await cache.keySet(refresh: false)
        #expect(transport.requests.count == 2)
        #expect(!FileManager.default.fileExists(atPath: setup.directory.path))
    }

    @Test(arguments: ["<html>proxy login</html>", #"{"keys":"none"}"#, #"{"issuer":"x"}"#])
    func aResponseThatIsNotAKeySetIsAProtocolViolationAndNotCached(body: String) async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let transport = ScriptedTransport([.json(200, body)])
        let cache = setup.cache(transport)
        do {
            _ = try await cache.keySet(refresh: false)
            Issue.record("accepted a body that is not a JWKS")
        } catch {
            guard case .protocolViolation(let message) = error else {
                Issue.record("expected .protocolViolation, got \(error)")
                return
            }
            #expect(message.contains("JWKS from https://example.okta.com/oauth2/default/v1/keys"))
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(cache.cacheFile).path))
    }

    @Test func anErrorStatusBecomesTheServersError() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let body =
            #"{"errorCode":"E0000007","errorSummary":"Not found: Resource not found: nope (AuthorizationServer)","errorLink":"E0000007","errorId":"oae1","errorCauses":[]}"#
        let transport = ScriptedTransport([.json(404, body)])
        await #expect {
            _ = try await setup.cache(transport).keySet(refresh: false)
        } throws: { error in
            (error as? IdFlowError)?.exitStatus == .notFound
        }
    }

    @Test func theValidatorUsesTheCacheAndRefreshesItForAnUnknownKid() async throws {
        let setup = Setup()
        defer { setup.removeAll() }
        let first = try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"))
        let rotated = try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"), TestKeys.jwk(TestKeys.otherRSA, kid: "k2"))
        let transport = ScriptedTransport([.json(200, first), .json(200, rotated)])
        let validator = JWTValidator(keys: setup.cache(transport))
        let policy = TokenValidationPolicy(
            issuer: JWTValidatorTests.issuer, audience: JWTValidatorTests.clientID, nonce: .notInThisGrant(.standaloneVerification),
            now: JWTValidatorTests.now)
        let claims = JWTValidatorTests.claims()
        _ = try await validator.validate(try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1"), policy: policy)
        _ = try await validator.validate(try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1"), policy: policy)
        #expect(transport.requests.count == 1)
        _ = try await validator.validate(try await TestKeys.sign(claims, with: TestKeys.otherRSA, kid: "k2"), policy: policy)
        _ = try await validator.validate(try await TestKeys.sign(claims, with: TestKeys.otherRSA, kid: "k2"), policy: policy)
        #expect(transport.requests.count == 2)
    }
}
