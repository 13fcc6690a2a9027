import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `serviceApps` and `dpopBoundAccessTokens` in the configuration file, and the default service app whose key
/// the sandbox writes at start-up (`SandboxInfo.serviceApp`).
@Suite("service apps in the configuration")
struct ServiceAppConfigurationTests {
    static func load(_ json: String) throws -> SandboxConfiguration {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try SandboxConfiguration.load(from: url)
    }

    static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    @Test("service apps are read with a PEM key or a JWK Set; requireDPoP defaults to false")
    func reads() async throws {
        let rsa = try await TestClientKey.rsa()
        let ec = try await TestClientKey.p256()
        let configuration = try Self.load(
            """
            {"serviceApps": [
              {"clientId": "0oasvc1", "publicKey": \(try Self.jsonString(rsa.publicPEM)), "keyId": "k1", "scopes": ["okta.users.read"]},
              {"clientId": "0oasvc2", "jwks": \(ec.jwks(kid: "e1")), "scopes": ["okta.users.manage"], "requireDPoP": true}
            ], "dpopBoundAccessTokens": ["0oaidflowsandbox0000"]}
            """)
        let apps = try #require(configuration.serviceApps)
        #expect(apps.map(\.clientId) == ["0oasvc1", "0oasvc2"])
        #expect(apps[0].requireDPoP == false)
        #expect(apps[0].keyId == "k1")
        #expect(apps[1].requireDPoP == true)
        #expect(configuration.dpopBoundAccessTokens == ["0oaidflowsandbox0000"])
    }

    @Test("mistakes are refused with the key that is wrong")
    func refuses() async throws {
        let rsa = try await TestClientKey.rsa()
        let pem = try Self.jsonString(rsa.publicPEM)
        let cases = [
            #"{"serviceApps": [{"clientId": "0oasvc1", "publicKey": \#(pem), "scopes": [], "colour": "red"}]}"#,
            #"{"serviceApps": [{"clientId": "0oasvc1", "scopes": ["okta.users.read"]}]}"#,
            #"{"serviceApps": [{"clientId": "0oasvc1", "publicKey": "not a key", "scopes": ["okta.users.read"]}]}"#,
            #"{"serviceApps": [{"clientId": "0oasvc1", "publicKey": \#(pem), "jwks": \#(rsa.jwks(kid: "a")), "scopes": []}]}"#,
            #"{"serviceApps": [{"clientId": "0oaidflowsandbox0000", "publicKey": \#(pem), "scopes": []}]}"#,
            #"{"serviceApps": [{"clientId": "0oasvc1", "jwks": {"keys": [{"kty": "oct", "k": "AAAA"}]}, "scopes": []}]}"#,
            #"{"dpopBoundAccessTokens": ["0oanosuchclient"]}"#,
        ]
        for json in cases {
            #expect(throws: SandboxConfigurationError.self, "\(json)") { try Self.load(json) }
        }
    }

    @Test("the default sandbox has one service app; its private key file is 0600, signs assertions, and goes on stop")
    func defaultServiceApp() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration())
        let app = try #require(server.info.serviceApp)
        #expect(app.clientId == "0oaidflowservice0000")
        #expect(app.scopes == ["okta.users.read", "okta.users.manage"])
        #expect(!app.keyId.isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: app.privateKeyFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let pem = try String(contentsOfFile: app.privateKeyFile, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))

        // The key works: an RS256 assertion with its kid buys a token, which lists users.
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: app.keyId))
        let now = Int(await server.state.now.timeIntervalSince1970)
        let assertion = try await keys.sign(
            TestAssertionClaims(
                iss: app.clientId, sub: app.clientId, aud: server.info.orgUrl + "/oauth2/v1/token", iat: now, exp: now + 300,
                jti: UUID().uuidString),
            kid: JWKIdentifier(string: app.keyId))
        var request = URLRequest(url: URL(string: server.info.orgUrl + "/oauth2/v1/token")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            ("grant_type=client_credentials&scope=okta.users.read&client_assertion_type="
                + "urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=\(assertion)").utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")

        // GET /sandbox/info carries the same, scopes as an array.
        var infoRequest = URLRequest(url: URL(string: server.info.orgUrl + "/sandbox/info")!)
        infoRequest.setValue("SSWS \(server.info.apiToken)", forHTTPHeaderField: "Authorization")
        let (infoData, _) = try await URLSession.shared.data(for: infoRequest)
        let info = try #require(try JSONSerialization.jsonObject(with: infoData) as? [String: Any])
        let served = try #require(info["serviceApp"] as? [String: Any])
        #expect(served["clientId"] as? String == app.clientId)
        #expect(served["privateKeyFile"] as? String == app.privateKeyFile)
        #expect(served["keyId"] as? String == app.keyId)
        #expect(served["scopes"] as? [String] == app.scopes)

        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: app.privateKeyFile))
    }

    @Test("a sandbox with its own service apps reports no default one")
    func configuredApps() async throws {
        var configuration = SandboxConfiguration()
        configuration.serviceApps = []
        let server = try await SandboxServer.start(configuration)
        #expect(server.info.serviceApp == nil)
        await server.stop()
    }
}
