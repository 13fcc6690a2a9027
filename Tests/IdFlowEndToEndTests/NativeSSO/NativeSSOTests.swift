import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// One sign-in shared between apps, the built `idflow` against `idflow sandbox`: app A signs in on the device grant
/// with --device-sso, app B takes its tokens with login-sso, the web app is signed in through web-sso's link.
@Suite(.serialized)
struct NativeSSOTests {
    static let appB = "0oaidflownativeb0000"
    /// An app whose policy wants two factors, which a password-only session never meets.
    static let appMFA = "0oaidflownativem0000"
    static let webApp = "0oaidflowwebapp00000"

    /// `idTokenLifetime`: shorter than Okta's hour, so an ID token can expire by the sandbox clock while the new
    /// tokens it issues after the move are still within the skew idflow allows against this machine's clock.
    static func sandbox(idTokenLifetime: Int = 3600) async throws -> LiveSandbox {
        let config: JSONValue = [
            "idTokenLifetimeSeconds": .number(Double(idTokenLifetime)), "deviceIntervalSeconds": 1, "confidentialClientId": .string(webApp),
            "confidentialClientSecret": "web-app-secret-0123456789",
            "nativeSSO": [
                "apps": [["clientId": .string(appB)], ["clientId": .string(appMFA)]], "requireMFA": [.string(appMFA)],
                "interclientTrust": [webApp: ["0oaidflowsandbox0000"]],
            ],
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("native-sso-\(UUID().uuidString).json")
        try JSONOutput.encode(config, style: .compact).write(to: file)
        let sandbox = try await LiveSandbox.start(["--config", file.path])
        // One profile per app: A signs in, B and the MFA app take their tokens from A's login.
        let profiles = sandbox.home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        let yaml = "profiles:\n  a:\n    scope: openid profile\n  b:\n    scope: openid profile offline_access\n"
        try (yaml + "  m:\n    scope: openid\n  c:\n    scope: openid profile\n").write(
            to: profiles.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        return sandbox
    }

    /// `login-device` approved through the sandbox's admin endpoint, as the device-grant tests approve it.
    static func signIn(_ sandbox: LiveSandbox, _ arguments: [String], email: String) async throws -> IdFlowBinary.Result {
        let (session, notice) = try await LoginDeviceTests.start(sandbox, arguments)
        try await LoginDeviceTests.answer(sandbox, notice, login: email, decision: "approve")
        return try await session.finish()
    }

    /// Every login takes --device-sso: login-pkce (here with a username and password) and login-direct (a password)
    /// keep the device secret as login-device does, and app B signs in from it.
    @Test(arguments: [
        ["login-pkce", "--username", "every@example.com", "--password-stdin"],
        ["login-direct", "--username", "every@example.com", "--password-stdin"],
    ])
    func everyLoginKeepsADeviceSecretAppBSignsInFrom(login: [String]) async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        let password = "Str0ng-Passw0rd!"
        let (userID, _) = try await sandbox.createActiveUser(email: "every@example.com", password: password)
        let signedIn = try await sandbox.idflow(login + ["--device-sso", "--profile", "a", "-v"], stdin: password)
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["scope"]?.stringValue?.contains("device_sso") == true)
        let secret = try #require(try sandbox.storedLogin(profile: "a")["tokens"]?["device_secret"]?.stringValue)
        #expect(!signedIn.stderr.contains(secret), "the trace masks the device secret")

        let sso = try await sandbox.idflow(["login-sso", "--from", "a", "--client-id", Self.appB, "--profile", "b"])
        #expect(sso.exitCode == 0, "\(sso)")
        #expect(try sso.json()["id_token_claims"]?["sub"] == .string(userID))
    }

    @Test func appBSignsInWithNoPromptWhileTheSessionLivesAndNotOnceTheSecretIsRevoked() async throws {
        let sandbox = try await Self.sandbox(idTokenLifetime: 20)
        defer { sandbox.stop() }
        let (userID, _) = try await sandbox.createActiveUser(email: "sso@example.com")
        let login = try await Self.signIn(sandbox, ["--device-sso", "--profile", "a", "-v", "--curl"], email: "sso@example.com")
        #expect(login.exitCode == 0, "\(login)")
        let stored = try sandbox.storedLogin(profile: "a")
        let secret = try #require(stored["tokens"]?["device_secret"]?.stringValue, "\(stored)")
        #expect(!login.stderr.contains(secret), "the trace masks the device secret")
        #expect(stored["idTokenClaims"]?["ds_hash"]?.stringValue != nil, "the secret was checked against the ID token's ds_hash")
        #expect(try login.json()["scope"]?.stringValue?.contains("device_sso") == true)
        let tokensFile = sandbox.stateDirectory.appendingPathComponent("profiles/a/tokens.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: tokensFile)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let sso = try await sandbox.idflow(["login-sso", "--from", "a", "--client-id", Self.appB, "--profile", "b", "-v", "--curl"])
        #expect(sso.exitCode == 0, "\(sso)")
        #expect(!sso.stderr.contains(secret) && !sso.stdout.contains(secret), "neither --verbose nor --curl shows the secret")
        let claims = try #require(try sso.json()["id_token_claims"])
        #expect(claims["aud"] == .string(Self.appB))
        #expect(claims["sub"] == .string(userID))
        #expect(claims["sid"] == stored["idTokenClaims"]?["sid"], "the same session")
        #expect(try sandbox.storedLogin(profile: "b")["clientId"] == .string(Self.appB))

        let refreshed = try await sandbox.idflow(["refresh", "--profile", "a"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        #expect(try sandbox.storedLogin(profile: "a")["tokens"]?["device_secret"] == .string(secret), "a refresh keeps the secret")

        // A's ID token has expired by the sandbox clock; its session has not, so B still signs in from it. The move is
        // small (the ID tokens live 20 s here), so B's new ID token is not future-dated by this machine's clock.
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 60])
        let expiry = try #require(try sandbox.storedLogin(profile: "a")["idTokenClaims"]?["exp"]?.intValue)
        let (_, clock) = try await sandbox.call("GET", "/sandbox/clock")
        let sandboxNow = try #require(ISO8601.date(clock?["now"]?.stringValue ?? ""), "\(String(describing: clock))")
        #expect(Double(expiry) < sandboxNow.timeIntervalSince1970, "A's ID token has expired by the sandbox clock")
        let later = try await sandbox.idflow(["login-sso", "--from", "a", "--client-id", Self.appB, "--profile", "b"])
        #expect(later.exitCode == 0, "\(later)")
        #expect(try later.json()["id_token_claims"]?["sid"] == stored["idTokenClaims"]?["sid"], "still the same session")

        let (status, _) = try await Self.revoke(secret, sandbox)
        #expect(status == 200)
        let refused = try await sandbox.idflow(["login-sso", "--from", "a", "--client-id", Self.appB, "--profile", "b"])
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("login-device --device-sso --profile a") == true, "\(refused)")
    }

    /// `logout` revokes the device secret before forgetting it: a copy of the secret and ID token buys nothing after.
    @Test func logoutRevokesTheDeviceSecretSoNoAppSignsInFromIt() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "out@example.com")
        let login = try await Self.signIn(sandbox, ["--device-sso", "--profile", "a"], email: "out@example.com")
        #expect(login.exitCode == 0, "\(login)")
        let stored = try sandbox.storedLogin(profile: "a")
        let secret = try #require(stored["tokens"]?["device_secret"]?.stringValue)
        let idToken = sandbox.home.appendingPathComponent("id-token")
        try #require(stored["tokens"]?["id_token"]?.stringValue).write(to: idToken, atomically: true, encoding: .utf8)
        let secretFile = sandbox.home.appendingPathComponent("device-secret")
        try secret.write(to: secretFile, atomically: true, encoding: .utf8)

        let logout = try await sandbox.idflow(["logout", "--profile", "a", "-v"])
        #expect(logout.exitCode == 0, "\(logout)")
        #expect(try logout.json()["revoked"] == ["device_secret", "refresh_token", "access_token"])
        #expect(!logout.stderr.contains(secret), "the trace masks the device secret")

        let refused = try await sandbox.idflow([
            "token", "exchange", "--subject-token-file", idToken.path, "--subject-token-type", "id", "--actor-token-file",
            secretFile.path, "--actor-token-type", "device-secret", "--audience", "api://default", "--client-id", Self.appB,
            "--scope", "openid profile",
        ])
        #expect(refused.exitCode == 4, "\(refused)")
    }

    @Test func anAppWantingMoreAssuranceIsRefusedWithItsOwnHint() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "mfa@example.com")
        let login = try await Self.signIn(sandbox, ["--device-sso", "--profile", "a"], email: "mfa@example.com")
        #expect(login.exitCode == 0, "\(login)")
        let refused = try await sandbox.idflow(["login-sso", "--from", "a", "--client-id", Self.appMFA, "--profile", "m"])
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("assurance policy") == true, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.appendingPathComponent("profiles/m/tokens.json").path))
    }

    @Test func tokenExchangeTradesTheSameSecretThroughTheGenericCommand() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "gen@example.com")
        _ = try await Self.signIn(sandbox, ["--device-sso", "--profile", "a"], email: "gen@example.com")
        let secret = try #require(try sandbox.storedLogin(profile: "a")["tokens"]?["device_secret"]?.stringValue)
        let exchange = try await Self.exchange(sandbox, secret: secret)
        #expect(exchange.exitCode == 0, "\(exchange)")
        #expect(try exchange.json()["expires_at"]?.stringValue != nil)
        #expect(try exchange.json()["issued_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(!exchange.stderr.contains(secret))
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path))

        let stored = try await sandbox.idflow([
            "token", "exchange", "--subject-from", "a:id", "--actor-token-file",
            sandbox.home.appendingPathComponent("device-secret").path, "--actor-token-type", "device-secret",
            "--client-id", Self.appB, "--audience", "api://default", "--scope", "openid profile", "--store-as", "c",
        ])
        #expect(stored.exitCode == 0, "\(stored)")
        #expect(try sandbox.storedLogin(profile: "c")["clientId"] == .string(Self.appB), "--store-as saves the result")

        // A profile the configuration does not define could never be read back (`--profile` refuses it): refused
        // before anything is sent, and nothing is saved.
        let undefined = try await sandbox.idflow([
            "token", "exchange", "--subject-from", "a:id", "--client-id", Self.appB, "--audience", "api://default",
            "--store-as", "nosuch",
        ])
        #expect(undefined.exitCode == 64, "\(undefined)")
        #expect(undefined.error?["hint"]?.stringValue?.contains("add it under `profiles:`") == true, "\(undefined)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.appendingPathComponent("profiles/nosuch").path))
    }

    /// The scripted browser fetches the link twice: the first time it is signed in (a code, no password page),
    /// the second the spent token is refused.
    @Test func webSSOGivesALinkThatSignsTheBrowserInOnce() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "web@example.com")
        let scope = "openid profile offline_access interclient_access"
        let login = try await Self.signIn(sandbox, ["--issuer", sandbox.orgURL, "--scope", scope], email: "web@example.com")
        #expect(login.exitCode == 0, "\(login)")
        let first = sandbox.home.appendingPathComponent("first")
        let second = sandbox.home.appendingPathComponent("second")
        let browser = sandbox.home.appendingPathComponent("browser.sh")
        try """
        #!/bin/sh
        curl -s -o /dev/null -w '%{redirect_url}' "$1" > '\(first.path).tmp' && mv '\(first.path).tmp' '\(first.path)'
        curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$1" > '\(second.path).tmp' && mv '\(second.path).tmp' '\(second.path)'
        """.write(to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o755)
        let web = try await sandbox.idflow(
            ["web-sso", "--issuer", sandbox.orgURL, "--client-id", Self.webApp, "--open", "-v"], environment: ["BROWSER": browser.path])
        #expect(web.exitCode == 0, "\(web)")
        let output = try web.json()
        let link = try #require(output["url"]?.stringValue)
        #expect(output["authorize_url"]?.stringValue == link, "the contract's url and authorize_url are the same link")
        #expect(link.contains("interclient_token=") && link.contains("client_id=\(Self.webApp)"))
        #expect(!web.stderr.contains(String(link.split(separator: "=").last ?? "")), "the trace masks the interclient token")
        let state = try #require(output["state"]?.stringValue)
        let signedIn = try await Self.waitForFile(second)
        let redirect = try String(contentsOf: first, encoding: .utf8)
        #expect(redirect.contains("code=") && redirect.contains("state=\(state)"), "\(redirect)")
        #expect(!signedIn.contains("code="), "a replayed interclient token signs nothing in: \(signedIn)")
        #expect(signedIn.contains("one_time_sso_token_replayed"), "\(signedIn)")
    }

    @Test func loginJWTBearerWithAMintedAssertion() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (userID, _) = try await sandbox.createActiveUser(email: "svc@example.com")
        let app = try #require(sandbox.info["serviceApp"])
        let key = try #require(app["privateKeyFile"]?.stringValue)
        let clientID = try #require(app["clientId"]?.stringValue)
        let login = try await sandbox.idflow([
            "login-jwt-bearer", "--sign-with", key, "--sub", "svc@example.com", "--client-id", clientID, "--issuer", sandbox.orgURL, "-v",
        ])
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
        #expect(try sandbox.storedLogin()["clientId"] == .string(clientID))
        #expect(login.stderr.contains("assertion=\(Redactor.mask)"), "the assertion is masked in the trace")
    }

    /// Native SSO through the generic `token exchange`: A's ID token and device secret for app B's tokens.
    static func exchange(_ sandbox: LiveSandbox, secret: String) async throws -> IdFlowBinary.Result {
        let secretFile = sandbox.home.appendingPathComponent("device-secret")
        try secret.write(to: secretFile, atomically: true, encoding: .utf8)
        chmod(secretFile.path, 0o600)
        return try await sandbox.idflow([
            "token", "exchange", "--subject-from", "a:id", "--actor-token-file", secretFile.path, "--actor-token-type", "device-secret",
            "--audience", "api://default", "--client-id", Self.appB, "--scope", "openid profile", "-v",
        ])
    }

    /// Revokes the device secret as an app would (native-sso.md §1.5).
    static func revoke(_ secret: String, _ sandbox: LiveSandbox) async throws -> (Int, Data) {
        let request = HTTPRequest.form(
            URL(string: "\(sandbox.orgURL)/oauth2/default/v1/revoke")!,
            fields: [("token", secret), ("token_type_hint", "device_secret"), ("client_id", sandbox.clientID)])
        let response = try await CurlTransport(options: .init(caFile: sandbox.caFile)).send(request)
        return (response.status, response.body)
    }

    static func waitForFile(_ url: URL) async throws -> String {
        for _ in 0..<100 {
            if let text = try? String(contentsOf: url, encoding: .utf8) { return text }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the scripted browser never wrote \(url.path)")
        return ""
    }
}
