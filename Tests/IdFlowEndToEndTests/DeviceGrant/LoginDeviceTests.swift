import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// login-device run as a user on a box without a browser would, against `idflow sandbox` polling every second.
@Suite(.serialized)
struct LoginDeviceTests {
    /// A sandbox whose device codes ask for a poll every second.
    static func sandbox() async throws -> LiveSandbox {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("device-\(UUID().uuidString).json")
        try #"{"deviceIntervalSeconds": 1}"#.write(to: config, atomically: true, encoding: .utf8)
        return try await LiveSandbox.start(["--config", config.path])
    }

    static func tokensFile(_ sandbox: LiveSandbox) -> String {
        sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path
    }

    /// Starts `idflow login-device` and returns it with the JSON line it printed for scripts, once it polls.
    static func start(_ sandbox: LiveSandbox, _ extra: [String] = []) async throws -> (InteractiveSession, JSONValue) {
        let session = try InteractiveSession.start(["login-device"] + extra, environment: sandbox.environment)
        let line = try await session.waitForStderrLine { $0.hasPrefix("{") && $0.contains("\"user_code\"") }
        _ = try await session.waitForStderrLine { $0.hasPrefix("Waiting for the sign-in") }
        return (session, try JSONValue(data: Data(line.utf8)))
    }

    static func answer(_ sandbox: LiveSandbox, _ notice: JSONValue, login: String, decision: String) async throws {
        let (status, body) = try await sandbox.call(
            "POST", "/sandbox/device",
            json: ["userCode": notice["user_code"] ?? .null, "login": .string(login), "decision": .string(decision)])
        #expect(status == 200, "\(String(describing: body))")
    }

    /// The browser is a shell script: it opens the link with the code, signs in on the page, presses the first
    /// button (allow), and keeps the result page's verdict.
    @Test func approvedOnTheActivatePageThenTheStoredTokensRefresh() async throws {
        let sandbox = try await Self.sandbox()
        let (userID, _) = try await sandbox.createActiveUser(email: "tv@example.com")
        let verdict = sandbox.home.appendingPathComponent("verdict")
        let login = try await sandbox.idflow(
            ["login-device", "--open"],
            environment: [
                "BROWSER": try LoginPKCETests.browserScript(decision: "approve", pageFile: verdict.path), "TEST_USERNAME": "tv@example.com",
                "TEST_SIGNIN_WORD": "Str0ng-Passw0rd!",
            ])
        #expect(login.exitCode == 0, "\(login)")
        #expect(try String(contentsOf: verdict, encoding: .utf8).contains(#"<h1 id="result">approved</h1>"#))
        let output = try login.json()
        #expect(output["token_type"] == "Bearer")
        #expect(output["id_token_claims"]?["sub"] == .string(userID))
        #expect(output["id_token_claims"]?["aud"] == .string(sandbox.clientID))
        #expect(output["id_token_claims"]?["nonce"] == nil)
        #expect(output["refresh_token"]?.stringValue != nil)
        #expect(login.stderr.contains("\(sandbox.orgURL)/activate\n"), "the page on a line of its own")

        let mode = try FileManager.default.attributesOfItem(atPath: Self.tokensFile(sandbox))[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let refresh = try await sandbox.idflow(["refresh"])
        #expect(refresh.exitCode == 0, "\(refresh)")
        #expect(try refresh.json()["access_token"] != output["access_token"])
        #expect(try refresh.json()["id_token_claims"]?["sub"] == .string(userID))
        let userinfo = try await sandbox.idflow(["userinfo"])
        #expect(try userinfo.json()["sub"] == .string(userID), "\(userinfo)")
    }

    @Test func approvedThroughTheAdminEndpointOnTheOrgServer() async throws {
        let sandbox = try await Self.sandbox()
        let (userID, _) = try await sandbox.createActiveUser(email: "script@example.com")
        let (session, notice) = try await Self.start(sandbox, ["--issuer", sandbox.orgURL])
        #expect(notice["verification_uri"] == .string("\(sandbox.orgURL)/activate"))
        #expect(notice["expires_in"] == 600)
        try await Self.answer(sandbox, notice, login: "script@example.com", decision: "approve")
        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["iss"] == .string(sandbox.orgURL))
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
    }

    @Test func aDeniedCodeExits8AndStoresNothing() async throws {
        let sandbox = try await Self.sandbox()
        _ = try await sandbox.createActiveUser(email: "no@example.com")
        let (session, notice) = try await Self.start(sandbox)
        try await Self.answer(sandbox, notice, login: "no@example.com", decision: "deny")
        let login = try await session.finish()
        #expect(login.exitCode == 8, "\(login)")
        #expect(login.error?["errorCode"] == "access_denied")
        #expect(login.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Self.tokensFile(sandbox)))
    }

    @Test func aCodeThatExpiresOnTheSandboxClockExits9() async throws {
        let sandbox = try await Self.sandbox()
        let (session, _) = try await Self.start(sandbox)
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 601])
        let login = try await session.finish()
        #expect(login.exitCode == 9, "\(login)")
        #expect(login.error?["errorCode"] == "expired_token")
        #expect(!FileManager.default.fileExists(atPath: Self.tokensFile(sandbox)))
    }

    /// The token endpoint says slow_down once: the client waits 1 + 5 s from then on, and still signs in.
    @Test func slowDownMakesTheClientPollLessOften() async throws {
        let sandbox = try await Self.sandbox()
        _ = try await sandbox.createActiveUser(email: "slow@example.com")
        let (status, _) = try await sandbox.call(
            "POST", "/sandbox/faults",
            json: [
                "pathPrefix": "/oauth2/default/v1/token", "status": 400, "count": 1, "contentType": "application/json",
                "body": #"{"error":"slow_down","error_description":"The client is polling too frequently."}"#,
            ])
        #expect(status == 201)
        let (session, notice) = try await Self.start(sandbox)
        _ = try await session.waitForStderrLine { $0.contains("polling every 6 s now") }
        let slowedAt = ContinuousClock.now
        try await Self.answer(sandbox, notice, login: "slow@example.com", decision: "approve")
        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        #expect(ContinuousClock.now - slowedAt >= .seconds(4), "the next poll came about 6 s after the slow_down")
    }

    /// Ctrl-C, or SIGTERM (`kill`, a CI job's timeout), while the code waits for its approval.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileWaitingExits130AndStoresNothing(signal: Int32) async throws {
        let sandbox = try await Self.sandbox()
        let (session, _) = try await Self.start(sandbox)
        kill(session.processIdentifier, signal)
        let login = try await session.finish()
        #expect(login.exitCode == 130, "\(login)")
        #expect(login.error?["kind"] == "interrupted")
        #expect(login.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Self.tokensFile(sandbox)))
    }

    /// A provider that does not advertise the endpoint (the sandbox's discovery document, minus that key).
    @Test func aProviderWithoutTheDeviceEndpointExits64() async throws {
        let sandbox = try await Self.sandbox()
        let path = "/oauth2/default/.well-known/openid-configuration"
        let (_, document) = try await sandbox.call("GET", path, authorized: false)
        let stripped = try #require(document).setting("device_authorization_endpoint", to: nil)
        try await sandbox.call(
            "POST", "/sandbox/faults",
            json: [
                "pathPrefix": .string(path), "status": 200, "count": 1, "contentType": "application/json",
                "body": .string(String(decoding: try JSONEncoder().encode(stripped), as: UTF8.self)),
            ])
        let login = try await sandbox.idflow(["login-device"])
        #expect(login.exitCode == 64, "\(login)")
        #expect(login.error?["hint"]?.stringValue?.contains("login-pkce --manual") == true)
    }
}
