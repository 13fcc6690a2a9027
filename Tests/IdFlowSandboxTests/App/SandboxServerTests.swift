import Foundation
import IdFlowSandbox
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("SandboxServer lifecycle and configuration")
struct SandboxServerTests {
    /// A plain GET over a real socket, as the CLI's URLSession transport will send it.
    static func get(_ url: String, token: String?) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: url)!)
        if let token { request.setValue("SSWS \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    @Test("start listens on a free port and reports how to reach it; stop is idempotent")
    func startAndStop() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration())
        #expect(server.port > 0)
        let info = server.info
        #expect(info.orgUrl == "http://127.0.0.1:\(server.port)")
        #expect(info.listenAddress == "127.0.0.1:\(server.port)")
        #expect(info.issuer == "\(info.orgUrl)/oauth2/default")
        #expect(info.clientId == "0oaidflowsandbox0000")
        #expect(info.redirectUri == "com.example.idflow:/callback")
        #expect(info.apiToken.count == 42 && info.apiToken.hasPrefix("00"))

        let (status, data) = try await Self.get("\(info.orgUrl)/sandbox/info", token: info.apiToken)
        #expect(status == 200)
        let served = try JSONDecoder().decode(SandboxInfo.self, from: data)
        #expect(served == info)

        // The OAuth side is up too, and discovery names this server's issuer.
        let (discoveryStatus, discovery) = try await Self.get("\(info.issuer)/.well-known/openid-configuration", token: nil)
        #expect(discoveryStatus == 200)
        let document = try JSONSerialization.jsonObject(with: discovery) as? [String: Any]
        #expect(document?["issuer"] as? String == info.issuer)

        await server.stop()
        await server.stop()
        try await server.waitUntilStopped()
        await #expect(throws: (any Error).self) { _ = try await Self.get("\(info.orgUrl)/sandbox/info", token: nil) }
    }

    @Test("the Date header a client reads follows the sandbox clock, as token times do")
    func dateHeaderFollowsTheClock() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration())
        defer { Task { await server.stop() } }
        /// Whether the server's Date, read during one request, is `offset` seconds ahead of this machine's clock
        /// then (the header has whole seconds; a loaded machine may take a while to answer).
        func dateIsAhead(by offset: TimeInterval) async throws -> Bool {
            let request = URLRequest(url: URL(string: "\(server.info.issuer)/.well-known/openid-configuration")!)
            let before = Date()
            let (_, response) = try await URLSession.shared.data(for: request)
            let after = Date()
            let header = try #require((response as! HTTPURLResponse).value(forHTTPHeaderField: "Date"))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(formatter.date(from: header), "\(header)")
            return date >= before.addingTimeInterval(offset - 1) && date <= after.addingTimeInterval(offset + 1)
        }
        #expect(try await dateIsAhead(by: 0))
        await server.state.advanceClock(bySeconds: 3600)
        // Hummingbird writes its own real-time Date after the router; the connection handler writes the clock's.
        #expect(try await dateIsAhead(by: 3600))
        await server.state.resetClock()
        #expect(try await dateIsAhead(by: 0))
    }

    @Test("a host name is reported as the address it resolved to, which clients can use")
    func listenAddressOfAHostName() async throws {
        var configuration = SandboxConfiguration()
        configuration.host = "localhost"
        let server = try await SandboxServer.start(configuration)
        let address = try #require(server.info.listenAddress)
        #expect(address == "127.0.0.1:\(server.port)" || address == "[::1]:\(server.port)", "\(address)")
        #expect(server.info.orgUrl == "http://\(address)")
        await server.stop()
    }

    @Test("two servers get different random API tokens; a configured one is kept")
    func apiTokens() async throws {
        let first = try await SandboxServer.start(SandboxConfiguration())
        var configuration = SandboxConfiguration()
        configuration.apiToken = "00fixedtoken"
        let second = try await SandboxServer.start(configuration)
        #expect(first.info.apiToken != SandboxConfiguration().apiToken)
        #expect(second.info.apiToken == "00fixedtoken")
        let third = try await SandboxServer.start(SandboxConfiguration())
        #expect(third.info.apiToken != first.info.apiToken)
        for server in [first, second, third] { await server.stop() }
    }

    @Test("a port already in use is an error, not a hang")
    func portInUse() async throws {
        let first = try await SandboxServer.start(SandboxConfiguration())
        var configuration = SandboxConfiguration()
        configuration.port = first.port
        await #expect(throws: (any Error).self) { _ = try await SandboxServer.start(configuration) }
        // The error names the port, so `idflow sandbox` can say which one and suggest --port 0.
        do {
            _ = try await SandboxServer.start(configuration)
        } catch let error as SandboxServerError {
            #expect(error.description == "port \(first.port) is in use on 127.0.0.1")
        }
        await first.stop()
    }

    @Test("SandboxInfo encodes to the keys idflow sandbox prints")
    func infoJSON() throws {
        let info = SandboxInfo(
            orgUrl: "http://127.0.0.1:1", issuer: "http://127.0.0.1:1/oauth2/default", apiToken: "00t",
            clientId: "0oa", redirectUri: "com.example.idflow:/callback")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(info), as: UTF8.self)
        #expect(
            text == #"{"apiToken":"00t","clientId":"0oa","issuer":"http://127.0.0.1:1/oauth2/default","#
                + #""orgUrl":"http://127.0.0.1:1","redirectUri":"com.example.idflow:/callback"}"#)
    }

    // MARK: Configuration files

    static func write(_ json: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("a configuration file may set any subset of fields; the rest keep their defaults")
    func loadPartial() throws {
        let url = try Self.write(#"{"port": 8123, "rateLimits": {"users": 5}, "activationURLStyle": "classic"}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let configuration = try SandboxConfiguration.load(from: url)
        #expect(configuration.port == 8123)
        #expect(configuration.rateLimits == ["users": 5])
        #expect(configuration.activationURLStyle == .classic)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.refreshTokenGraceSeconds == 30)
        #expect(configuration.accessTokenLifetimeSeconds == 3600)
        #expect(configuration.redirectURIs == ["com.example.idflow:/callback", "http://127.0.0.1/callback"])
        #expect(configuration.apiToken == nil)
        #expect(configuration.mfaPolicy == .whenEnrolled)
        #expect(configuration.pushUserVerification == .none)
        #expect(configuration.pushChallengeSeconds == 300)
    }

    @Test("the push settings are read from the file")
    func loadPushSettings() throws {
        let url = try Self.write(#"{"mfaPolicy": "always", "pushUserVerification": "REQUIRED", "pushChallengeSeconds": 30}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let configuration = try SandboxConfiguration.load(from: url)
        #expect(configuration.mfaPolicy == .always)
        #expect(configuration.pushUserVerification == .required)
        #expect(configuration.pushChallengeSeconds == 30)
    }

    @Test("unknown keys are rejected with a message that names them")
    func loadUnknownKey() throws {
        let url = try Self.write(#"{"prot": 8123}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(throws: SandboxConfigurationError.self) { try SandboxConfiguration.load(from: url) }
        #expect(String(describing: error).contains("prot"))
        #expect(String(describing: error).contains("port"), "lists the known keys")
    }

    @Test("bad values and unknown rate-limit families are rejected")
    func loadInvalid() throws {
        let invalid = [
            #"{"port": "x"}"#, #"{"rateLimits": {"usres": 1}}"#, #"[1]"#, #"{"port": 70000}"#, "nope",
            #"{"confidentialClientId": "0oaconfidential00000"}"#, #"{"mfaPolicy": "sometimes"}"#,
            #"{"pushUserVerification": "required"}"#, #"{"pushChallengeSeconds": 0}"#,
        ]
        for json in invalid {
            let url = try Self.write(json)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(throws: SandboxConfigurationError.self, "\(json)") { try SandboxConfiguration.load(from: url) }
        }
        #expect(throws: SandboxConfigurationError.self) {
            try SandboxConfiguration.load(from: URL(fileURLWithPath: "/nonexistent/sandbox.json"))
        }
    }
}
