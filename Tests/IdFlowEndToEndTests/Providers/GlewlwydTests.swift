import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The built `idflow` against an OpenID provider nobody in this repository wrote: Glewlwyd 2.7.5 from Debian
/// (`apt-get install glewlwyd`), started once on 127.0.0.1 by `scripts/glewlwyd/start.sh` with a fresh sqlite
/// database and configured through its admin API. idflow is configured only through a profile in config.yaml, as a
/// user of another provider would; the browser is `scripts/glewlwyd/browser.sh`, which signs in and consents through
/// Glewlwyd's own REST API.
@Suite(.serialized)
struct GlewlwydTests {
    static let scopes = "openid profile email offline_access"

    // MARK: a. login-pkce --browser

    @Test func browserLoginWithPKCEOnTheRegisteredPort() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let port = glewlwyd.callbackPorts[0]
        let login = try await user.idflow(["login-pkce", "--browser", "--port", String(port), "--browser-timeout", "60"])
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        let claims = output["id_token_claims"]
        #expect(claims?["iss"] == .string(glewlwyd.issuer))
        #expect(claims?["aud"] == .string(glewlwyd.publicClientID))
        #expect(claims?["name"] == "Jo Doe")
        #expect(claims?["email"] == "jo@example.com")
        #expect(claims?["amr"] == ["password"])
        let subject = try #require(claims?["sub"]?.stringValue)
        #expect(subject == (try await user.subject()), "the ID token's subject is the signed-in user's, as userinfo says")
        #expect(output["refresh_token"]?.stringValue != nil)
        let stored = try user.stored()
        #expect(stored["idTokenClaims"]?["sub"] == .string(subject))
        #expect(stored["tokens"]?["access_token"] == output["access_token"])
        #expect(stored["clientId"] == .string(glewlwyd.publicClientID))
        #expect(login.stderr.contains("\(glewlwyd.issuer)/auth?"), "the URL is printed too")

        // The provider matches the redirect URI exactly, so the next login needs the same port at once, while the
        // first listener's connections still hold it in TIME_WAIT.
        let again = try await user.idflow(["login-pkce", "--browser", "--port", String(port), "--browser-timeout", "60"])
        #expect(again.exitCode == 0, "\(again)")
    }

    // MARK: b. login-pkce --manual

    @Test func manualLoginWithThePastedRedirect() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.manualLogin()
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        #expect(output["id_token_claims"]?["aud"] == .string(glewlwyd.publicClientID))
        #expect(output["id_token_claims"]?["sub"]?.stringValue == (try await user.subject()))
        #expect(try user.stored()["tokens"]?["access_token"] == output["access_token"])
    }

    // MARK: c. refresh (Glewlwyd answers without an ID token: issue 38 item 1, OIDC Core 12.2)

    @Test func refreshWithoutAnIDTokenKeepsTheStoredOne() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.manualLogin()
        try #require(login.exitCode == 0, "\(login)")
        let before = try user.stored()
        let refreshed = try await user.idflow(["refresh"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        let output = try refreshed.json()
        let accessToken = try #require(output["access_token"]?.stringValue)
        #expect(.string(accessToken) != before["tokens"]?["access_token"], "a new access token")
        let after = try user.stored()
        #expect(after["tokens"]?["access_token"] == .string(accessToken), "and it is stored")
        #expect(after["tokens"]?["id_token"] == before["tokens"]?["id_token"], "the ID token of the login is kept")
        #expect(after["idTokenClaims"]?["sub"] == before["idTokenClaims"]?["sub"])
        let userinfo = try await user.idflow(["userinfo"])
        #expect(userinfo.exitCode == 0, "the refreshed token works: \(userinfo)")
    }

    // MARK: d. login-device

    @Test func deviceLoginApprovedAtTheVerificationPage() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        // --open hands verification_uri_complete to $BROWSER: the scripted browser signs in and approves the code.
        let login = try await user.idflow(["login-device", "--open", "--device-timeout", "60"])
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        #expect(output["id_token_claims"]?["aud"] == .string(glewlwyd.publicClientID))
        #expect(output["id_token_claims"]?["nonce"] == nil)
        #expect(output["id_token_claims"]?["sub"]?.stringValue == (try await user.subject()))
        #expect(login.stderr.contains("\"verification_uri_complete\":\"\(glewlwyd.issuer)/device?code="), "\(login.stderr)")
        #expect(try user.stored()["tokens"]?["access_token"] == output["access_token"])
    }

    @Test func deviceLoginApprovedByItsUserCode() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let session = try InteractiveSession.start(["login-device", "--device-timeout", "60"], environment: user.environment)
        let line = try await session.waitForStderrLine { $0.hasPrefix("{") && $0.contains("\"user_code\"") }
        let userCode = try #require(try JSONValue(data: Data(line.utf8))["user_code"]?.stringValue)
        let approval = try await glewlwyd.browser(["--device", userCode])
        #expect(approval.status == 0, "\(approval.standardError)")
        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"]?.stringValue == (try await user.subject()))
    }

    // MARK: e. login-client

    @Test func clientCredentialsWithTheSecretFromTheProfile() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.idflow(["login-client", "--profile", "confidential", "--scope", "openid profile"])
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        let claims = try #require(try JWTClaims.decode(output["access_token"]?.stringValue))
        #expect(claims["client_id"] == .string(glewlwyd.confidentialClientID))
        #expect(claims["sub"] == .string(glewlwyd.confidentialClientID), "a token for the client itself")
        #expect(output["refresh_token"] == nil)
        #expect(try user.stored(profile: "confidential")["tokens"]?["access_token"] == output["access_token"])
    }

    @Test func clientCredentialsWithPrivateKeyJWT() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.idflow(["login-client", "--profile", "jwt", "--no-store"])
        #expect(login.exitCode == 0, "\(login)")
        let claims = try #require(try JWTClaims.decode(try login.json()["access_token"]?.stringValue))
        #expect(claims["client_id"] == .string(glewlwyd.privateKeyJWTClientID))
    }

    // MARK: f. token introspect, token revoke, userinfo, logout

    @Test func introspectRevokeUserinfoAndLogout() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        // Glewlwyd introspects and revokes only for a client that authenticates: the confidential one, in a browser
        // on its own registered port.
        let login = try await user.idflow([
            "login-pkce", "--browser", "--profile", "confidential", "--port", String(glewlwyd.callbackPorts[1]),
            "--browser-timeout", "60",
        ])
        try #require(login.exitCode == 0, "\(login)")
        let subject = try #require(try login.json()["id_token_claims"]?["sub"]?.stringValue)

        let userinfo = try await user.idflow(["userinfo", "--profile", "confidential"])
        #expect(userinfo.exitCode == 0, "\(userinfo)")
        #expect(try userinfo.json()["sub"] == .string(subject))
        #expect(try userinfo.json()["email"] == "jo@example.com")

        let active = try await user.idflow(["token", "introspect", "--type", "access", "--profile", "confidential"])
        #expect(active.exitCode == 0, "\(active)")
        #expect(try active.json()["active"] == true)
        #expect(try active.json()["sub"] == .string(subject))
        #expect(try active.json()["username"] == .string(glewlwyd.username))
        let refreshActive = try await user.idflow(["token", "introspect", "--type", "refresh", "--profile", "confidential"])
        #expect(try refreshActive.json()["active"] == true, "\(refreshActive)")

        let revoked = try await user.idflow(["token", "revoke", "--type", "access", "--profile", "confidential"])
        #expect(revoked.exitCode == 0, "\(revoked)")
        let inactive = try await user.idflow(["token", "introspect", "--type", "access", "--profile", "confidential"])
        #expect(inactive.exitCode == 0, "\(inactive)")
        #expect(try inactive.json()["active"] == false, "\(inactive)")
        let refused = try await user.idflow(["userinfo", "--profile", "confidential"])
        #expect(refused.exitCode != 0, "a revoked access token is refused by userinfo: \(refused)")

        let logout = try await user.idflow(["logout", "--profile", "confidential"])
        #expect(logout.exitCode == 0, "\(logout)")
        #expect(try logout.json()["cleared"] == true)
        #expect(try logout.json()["revoked"]?.arrayValue?.contains("refresh_token") == true, "\(logout)")
        #expect(!FileManager.default.fileExists(atPath: user.storedFile(profile: "confidential").path), "the store is cleared")
        // The refresh token went with the logout: Glewlwyd says so, asked directly as the confidential client.
        let refreshToken = try #require(try login.json()["refresh_token"]?.stringValue)
        let afterLogout = try await user.idflow(
            ["token", "introspect", "--type", "refresh", "--profile", "confidential", "-"], stdin: refreshToken)
        #expect(afterLogout.exitCode == 0, "\(afterLogout)")
        #expect(try afterLogout.json()["active"] == false, "\(afterLogout)")
    }

    // MARK: g. api and token get refresh a confidential client's login with its secret (issue 38 item 2)

    @Test func tokenGetRefreshesAConfidentialLoginWithTheSecret() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.manualLogin(profile: "confidential")
        try #require(login.exitCode == 0, "\(login)")
        let before = try #require(try login.json()["access_token"]?.stringValue)
        // Glewlwyd's access tokens live an hour: a minimum lifetime of two forces the refresh.
        let token = try await user.idflow(["token", "get", "--min-ttl", "7200", "--profile", "confidential"])
        #expect(token.exitCode == 0, "\(token)")
        let after = try #require(try token.json()["access_token"]?.stringValue)
        #expect(after != before, "a refreshed access token")
        #expect(try user.stored(profile: "confidential")["tokens"]?["access_token"] == .string(after))
    }

    @Test func apiRefreshesAConfidentialLoginWithTheSecretAfterA401() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.manualLogin(profile: "confidential")
        try #require(login.exitCode == 0, "\(login)")
        // A revoked access token: Glewlwyd's userinfo (the API here) answers 401, and api refreshes once and retries.
        let revoked = try await user.idflow(["token", "revoke", "--type", "access", "--profile", "confidential"])
        try #require(revoked.exitCode == 0, "\(revoked)")
        let call = try await user.idflow(["api", "--profile", "confidential", "\(glewlwyd.issuer)/userinfo"])
        #expect(call.exitCode == 0, "\(call)")
        #expect(try call.json()["sub"] == login.json()["id_token_claims"]?["sub"])
    }

    // MARK: h. DPoP (Glewlwyd 2.7.5 implements draft 07; RFC 9449's proofs are the same)

    @Test func dpopBoundLoginAndUserinfo() async throws {
        let glewlwyd = try await Glewlwyd.shared()
        let user = try GlewlwydUser(glewlwyd)
        let login = try await user.manualLogin(profile: "dpop")
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        #expect(output["token_type"] == "DPoP")
        let claims = try #require(try JWTClaims.decode(output["access_token"]?.stringValue))
        let thumbprint = try #require(claims["cnf"]?["jkt"]?.stringValue)
        let inspect = try await user.idflow(["token", "inspect", "--profile", "dpop"])
        #expect(try inspect.json()["dpop"]?["storedKeyThumbprint"] == .string(thumbprint), "\(inspect)")
        #expect(try inspect.json()["dpop"]?["matchesStoredKey"] == true)
        let userinfo = try await user.idflow(["userinfo", "--profile", "dpop"])
        #expect(userinfo.exitCode == 0, "a proof with the token, and Glewlwyd takes it: \(userinfo)")
        #expect(try userinfo.json()["sub"] == output["id_token_claims"]?["sub"])
    }

    // MARK: the scripts themselves

    @Test func startFailsLoudlyWithoutGlewlwyd() async throws {
        let dirname = ["/usr/bin/dirname", "/bin/dirname"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/dirname"
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-glewlwyd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        // A PATH with dirname alone (start.sh's first command): no glewlwyd on it.
        try FileManager.default.createSymbolicLink(atPath: empty.appendingPathComponent("dirname").path, withDestinationPath: dirname)
        let run = try await ExternalCommand.run(
            "/bin/bash", [Glewlwyd.script("start.sh").path, empty.appendingPathComponent("server").path],
            environment: ["PATH": empty.path])
        #expect(run.status != 0)
        #expect(run.standardError.contains("glewlwyd is not installed (apt-get install glewlwyd)"), "\(run.standardError)")
        #expect(run.output.isEmpty)
    }
}

/// One Glewlwyd for the whole test process: started on first use, stopped when the process ends (start.sh's
/// watcher follows this process's pid), so a crashed run leaves no server behind.
struct Glewlwyd: Sendable {
    let info: JSONValue
    var issuer: String { info["issuer"]?.stringValue ?? "" }
    var directory: String { info["dir"]?.stringValue ?? "" }
    var username: String { info["username"]?.stringValue ?? "" }
    var publicClientID: String { info["publicClientId"]?.stringValue ?? "" }
    var confidentialClientID: String { info["confidentialClientId"]?.stringValue ?? "" }
    var privateKeyJWTClientID: String { info["privateKeyJwtClientId"]?.stringValue ?? "" }
    var redirectURIs: [String] { info["redirectUris"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    var callbackPorts: [Int] { info["callbackPorts"]?.arrayValue?.compactMap(\.intValue) ?? [] }

    static func script(_ name: String) -> URL {
        Fixtures.packageRoot.appendingPathComponent("scripts/glewlwyd/\(name)")
    }

    private actor Once {
        var started: Glewlwyd?

        func get() async throws -> Glewlwyd {
            if let started { return started }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glewlwyd-e2e-\(UUID().uuidString)")
            let run = try await ExternalCommand.run(
                "/bin/bash", [script("start.sh").path, directory.path],
                environment: [
                    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                    "GLEWLWYD_STOP_WITH_PID": String(ProcessInfo.processInfo.processIdentifier),
                ])
            guard run.status == 0, let info = try? JSONValue(data: run.standardOutput) else {
                throw DidNotStart(status: run.status, stderr: run.standardError)
            }
            let glewlwyd = Glewlwyd(info: info)
            started = glewlwyd
            return glewlwyd
        }
    }

    private static let once = Once()

    static func shared() async throws -> Glewlwyd { try await once.get() }

    /// `browser.sh ARGUMENTS…` as the tests' browser, with the server's directory.
    func browser(_ arguments: [String]) async throws -> ExternalCommand.Result {
        try await ExternalCommand.run(
            "/bin/bash", [Self.script("browser.sh").path] + arguments,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "GLEWLWYD_HOME": directory])
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var status: Int32
        var stderr: String
        var description: String { "scripts/glewlwyd/start.sh failed (exit \(status)): \(stderr)" }
    }
}

/// A person using idflow against Glewlwyd: a home of their own, and a config.yaml whose profiles name Glewlwyd's
/// clients (no OKTA_* variable, no configuration flag).
struct GlewlwydUser {
    let glewlwyd: Glewlwyd
    let home: URL

    init(_ glewlwyd: Glewlwyd) throws {
        self.glewlwyd = glewlwyd
        home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-glewlwyd-\(UUID().uuidString)")
        let config = home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let directory = glewlwyd.directory
        let scope = GlewlwydTests.scopes
        let yaml = """
            profiles:
              default:
                issuer: \(glewlwyd.issuer)
                clientId: \(glewlwyd.publicClientID)
                redirectUri: \(glewlwyd.redirectURIs[0])
                scope: \(scope)
              confidential:
                issuer: \(glewlwyd.issuer)
                clientId: \(glewlwyd.confidentialClientID)
                redirectUri: \(glewlwyd.redirectURIs[1])
                clientSecretFile: \(directory)/client-secret
                scope: \(scope)
              jwt:
                issuer: \(glewlwyd.issuer)
                clientId: \(glewlwyd.privateKeyJWTClientID)
                privateKeyFile: \(directory)/client-key.pem
                privateKeyId: \(glewlwyd.info["privateKeyId"]?.stringValue ?? "")
                scope: openid profile
              dpop:
                issuer: \(glewlwyd.issuer)
                clientId: \(glewlwyd.publicClientID)
                redirectUri: \(glewlwyd.redirectURIs[2])
                scope: \(scope)
                dpop: true

            """
        try yaml.write(to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "IDFLOW_STATE_DIR": home.appendingPathComponent("state").path, "IDFLOW_MAX_RETRIES": "0",
            "BROWSER": Glewlwyd.script("browser.sh").path, "GLEWLWYD_HOME": glewlwyd.directory,
        ]
    }

    func idflow(_ arguments: [String], stdin: String = "") async throws -> IdFlowBinary.Result {
        try await IdFlowBinary.run(arguments, stdin: stdin, environment: environment)
    }

    /// `login-pkce --manual`: the URL read from stderr, opened by the scripted browser, which prints the redirect
    /// it was sent to instead of following it; that is pasted on stdin, as a person copies it from the address bar.
    func manualLogin(profile: String = "default") async throws -> IdFlowBinary.Result {
        let session = try InteractiveSession.start(["login-pkce", "--manual", "--profile", profile], environment: environment)
        let url = try await session.waitForStderrLine { $0.hasPrefix("\(glewlwyd.issuer)/auth?") }
        let browser = try await glewlwyd.browser(["--print", url])
        guard browser.status == 0 else {
            try await session.kill()
            throw BrowserFailed(stderr: browser.standardError)
        }
        return try await session.finish(stdin: browser.output)
    }

    /// The user's subject as Glewlwyd's userinfo says for a fresh login's token (its public subject identifier,
    /// not the username).
    func subject() async throws -> String? {
        let info = try await idflow(["userinfo"])
        return try? info.json()["sub"]?.stringValue
    }

    func storedFile(profile: String = "default") -> URL {
        home.appendingPathComponent("state/profiles/\(profile)/tokens.json")
    }

    func stored(profile: String = "default") throws -> JSONValue {
        try JSONValue(data: Data(contentsOf: home.appendingPathComponent("state/profiles/\(profile)/tokens.json")))
    }

    struct BrowserFailed: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "scripts/glewlwyd/browser.sh failed: \(stderr)" }
    }
}

/// The claims of a JWT, decoded without a signature check (the tests look at what Glewlwyd put in its tokens).
enum JWTClaims {
    static func decode(_ token: String?) throws -> JSONValue? {
        guard let token else { return nil }
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try JSONValue(data: data)
    }
}
