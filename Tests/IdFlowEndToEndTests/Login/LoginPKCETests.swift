import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// login-pkce in every mode, run as a user would, against `idflow sandbox`.
@Suite(.serialized)
struct LoginPKCETests {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func tokensFile(_ sandbox: LiveSandbox, profile: String = "default") -> String {
        sandbox.stateDirectory.appendingPathComponent("profiles/\(profile)/tokens.json").path
    }

    @Test func aSessionTokenLogsInHeadlesslyAndTheTokensAreStored0600() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, session) = try await sandbox.createActiveUser(email: "jo@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        #expect(output["token_type"] == "Bearer")
        #expect(output["access_token"]?.stringValue?.split(separator: ".").count == 3)
        #expect(output["refresh_token"]?.stringValue != nil, "offline_access is in the default scope")
        #expect(output["id_token"]?.stringValue != nil)
        #expect(output["expires_in"] != nil)
        #expect(output["scope"]?.stringValue?.contains("openid") == true)
        #expect(output["id_token_claims"]?["sub"] == .string(userID))
        #expect(output["id_token_claims"]?["aud"] == .string(sandbox.clientID))
        let expiresAt = try #require(output["expires_at"]?.stringValue.flatMap(ISO8601.date))
        #expect(expiresAt.timeIntervalSinceNow > 3000 && expiresAt.timeIntervalSinceNow <= 3600)

        let file = tokensFile(sandbox)
        #expect(try mode(file) == 0o600)
        #expect(try mode((file as NSString).deletingLastPathComponent) == 0o700)
        #expect(try mode(sandbox.stateDirectory.path) == 0o700)
        let stored = try JSONValue(data: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(stored["tokens"]?["refresh_token"] == output["refresh_token"])

        let introspected = try await sandbox.idflow(["token", "introspect"])
        #expect(introspected.exitCode == 0, "\(introspected)")
        #expect(try introspected.json()["active"] == true)
        let userinfo = try await sandbox.idflow(["userinfo"])
        #expect(try userinfo.json()["sub"] == .string(userID), "\(userinfo)")
    }

    @Test func aSessionTokenWorksOnlyOnce() async throws {
        let sandbox = try await LiveSandbox.start()
        let (_, session) = try await sandbox.createActiveUser(email: "once@example.com")
        #expect(try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--no-store"], stdin: session).exitCode == 0)
        let again = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(again.exitCode == 4, "\(again)")
        #expect(again.error?["errorCode"] == "login_required")
        #expect(again.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tokensFile(sandbox)), "--no-store stored nothing, the failure neither")
    }

    @Test func anExpiredSessionTokenIsLoginRequired() async throws {
        let sandbox = try await LiveSandbox.start()
        let (_, session) = try await sandbox.createActiveUser(email: "late@example.com")
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(301)])
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 4, "\(login)")
        #expect(login.error?["errorCode"] == "login_required")
    }

    @Test func usernameAndPasswordLogIn() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, _) = try await sandbox.createActiveUser(email: "pw@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--username", "pw@example.com", "--password-stdin"], stdin: "Str0ng-Passw0rd!")
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
        let wrong = try await sandbox.idflow(["login-pkce", "--username", "pw@example.com", "--password-stdin"], stdin: "Wr0ng-Passw0rd!")
        #expect(wrong.exitCode == 4, "\(wrong)")
        #expect(wrong.error?["errorCode"] == "E0000004")
    }

    @Test func theOrgAuthorizationServerWorksToo() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, session) = try await sandbox.createActiveUser(email: "org@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--issuer", sandbox.orgURL], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["iss"] == .string(sandbox.orgURL))
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
    }

    /// The browser is played by a shell script: it fetches the sign-in page, posts the credentials and
    /// follows the redirect to idflow's loopback listener, as a person in a browser would.
    @Test func theBrowserModeCatchesTheLoopbackRedirect() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, _) = try await sandbox.createActiveUser(email: "web@example.com")
        let login = try await sandbox.idflow(
            ["login-pkce", "--browser", "--browser-timeout", "60"],
            environment: ["BROWSER": try Self.browserScript(), "TEST_USERNAME": "web@example.com", "TEST_SIGNIN_WORD": "Str0ng-Passw0rd!"])
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
        #expect(login.stderr.contains("/v1/authorize?"), "the URL is always printed")
        #expect(login.stderr.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
    }

    @Test func theBrowserModeGivesUpAfterItsTimeout() async throws {
        let sandbox = try await LiveSandbox.start()
        let login = try await sandbox.idflow(["login-pkce", "--browser", "--browser-timeout", "1"], environment: ["BROWSER": "true"])
        #expect(login.exitCode == 9, "\(login)")
    }

    /// Ctrl-C (or SIGTERM) while the browser sign-in is awaited ends the wait at once, not at --browser-timeout:
    /// exit 130, the error line, nothing stored.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileTheBrowserWaitsExits130AndStoresNothing(signal: Int32) async throws {
        let sandbox = try await LiveSandbox.start()
        var environment = sandbox.environment
        environment["BROWSER"] = "true"
        let session = try InteractiveSession.start(["login-pkce", "--browser", "--browser-timeout", "600"], environment: environment)
        _ = try await session.waitForStderrLine { $0.contains("/v1/authorize?") }
        kill(session.processIdentifier, signal)
        let login = try await session.finish(timeout: .seconds(60))
        #expect(login.exitCode == 130, "\(login)")
        #expect(login.error?["kind"] == "interrupted")
        #expect(login.error?["message"] == "interrupted while waiting for the browser sign-in")
        #expect(login.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tokensFile(sandbox)))
    }

    /// Another local process answers the listener first with a code and a state of its own: it gets a 400
    /// page, and the real redirect that follows still logs in.
    @Test func aForgedRedirectGets400AndTheRealRedirectStillLogsIn() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, _) = try await sandbox.createActiveUser(email: "forged@example.com")
        let status = sandbox.home.appendingPathComponent("forged-status")
        let browser = try Self.forgingBrowserScript(statusFile: status.path, thenSignIn: try Self.browserScript())
        let login = try await sandbox.idflow(
            ["login-pkce", "--browser", "--browser-timeout", "60"],
            environment: ["BROWSER": browser, "TEST_USERNAME": "forged@example.com", "TEST_SIGNIN_WORD": "Str0ng-Passw0rd!"])
        #expect(login.exitCode == 0, "\(login)")
        #expect(try String(contentsOf: status, encoding: .utf8) == "400", "the forged request was refused")
        #expect(login.stderr.contains("ignored a request to /callback"), "\(login.stderr)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
    }

    /// A forged redirect alone no longer ends the login: it runs out its --browser-timeout (exit 9), stores nothing.
    @Test func aForgedRedirectAloneEndsInTheBrowserTimeout() async throws {
        let sandbox = try await LiveSandbox.start()
        let status = sandbox.home.appendingPathComponent("forged-status")
        let login = try await sandbox.idflow(
            ["login-pkce", "--browser", "--browser-timeout", "2"],
            environment: ["BROWSER": try Self.forgingBrowserScript(statusFile: status.path, thenSignIn: nil)])
        #expect(login.exitCode == 9, "\(login)")
        #expect(try String(contentsOf: status, encoding: .utf8) == "400")
        #expect(!FileManager.default.fileExists(atPath: tokensFile(sandbox)))
    }

    @Test func manualModeRejectsAPastedRedirectWithTheWrongState() async throws {
        let sandbox = try await LiveSandbox.start()
        let login = try await sandbox.idflow(["login-pkce", "--manual"], stdin: "com.example.idflow:/callback?code=abc&state=not-ours\n")
        #expect(login.exitCode == 13, "\(login)")
        #expect(login.stderr.contains("/v1/authorize?"), "the URL to open is printed")
    }

    /// The manual mode end to end: read the URL idflow prints, sign in at the sandbox's page, paste the
    /// redirect back on stdin.
    @Test func manualModeExchangesAPastedRedirect() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, _) = try await sandbox.createActiveUser(email: "ssh@example.com")
        let session = try InteractiveSession.start(["login-pkce", "--manual"], environment: sandbox.environment)
        let url = try await session.waitForStderrLine { $0.contains("/v1/authorize?") }
        let redirect = try await SignInPage.signIn(authorizeURL: url, username: "ssh@example.com", password: "Str0ng-Passw0rd!")
        #expect(redirect.hasPrefix("com.example.idflow:/callback?"))
        let result = try await session.finish(stdin: redirect + "\n")
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["id_token_claims"]?["sub"] == .string(userID))
    }

    @Test func aTamperedIDTokenIsRejectedAndNothingIsStored() async throws {
        let sandbox = try await LiveSandbox.start()
        let (_, first) = try await sandbox.createActiveUser(email: "tamper@example.com")
        let genuine = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--no-store"], stdin: first)
        var response = try genuine.json()
        let idToken = try #require(response["id_token"]?.stringValue)
        let parts = idToken.split(separator: ".").map(String.init)
        var claims = try JSONValue(data: Base64URL.decode(parts[1])!)
        claims = claims.setting("sub", to: "00uSomeoneElse0000000")
        let tampered = [parts[0], Base64URL.encode(try JSONEncoder().encode(claims)), parts[2]].joined(separator: ".")
        response = response.setting("id_token", to: .string(tampered)).setting("id_token_claims", to: nil).setting("expires_at", to: nil)
        try await Self.replaceNextTokenResponse(sandbox, with: response)
        let session = try await Self.newSessionToken(sandbox, "tamper@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 13, "\(login)")
        #expect(login.error?["message"]?.stringValue?.contains("signature") == true)
        #expect(login.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tokensFile(sandbox)))
    }

    @Test func anIDTokenMintedForAnotherLoginFailsTheNonceCheck() async throws {
        let sandbox = try await LiveSandbox.start()
        let (_, first) = try await sandbox.createActiveUser(email: "replay@example.com")
        let earlier = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--no-store"], stdin: first)
        let replay = try earlier.json().setting("id_token_claims", to: nil).setting("expires_at", to: nil)
        try await Self.replaceNextTokenResponse(sandbox, with: replay)
        let session = try await Self.newSessionToken(sandbox, "replay@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 13, "\(login)")
        #expect(login.error?["message"]?.stringValue?.contains("nonce") == true)
    }

    @Test func aConfidentialClientSendsItsSecretWithBasicAuth() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("conf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = dir.appendingPathComponent("sandbox.json")
        try #"{"confidentialClientId":"0oaconfidential00001","confidentialClientSecret":"s3cret-value"}"#.write(
            to: config, atomically: true, encoding: .utf8)
        let secret = dir.appendingPathComponent("secret")
        try "s3cret-value\n".write(to: secret, atomically: true, encoding: .utf8)
        let wrong = dir.appendingPathComponent("wrong")
        try "not-it".write(to: wrong, atomically: true, encoding: .utf8)
        let sandbox = try await LiveSandbox.start(["--config", config.path])
        let (userID, session) = try await sandbox.createActiveUser(email: "conf@example.com")
        let login = try await sandbox.idflow(
            ["login-pkce", "--session-token-stdin", "--client-id", "0oaconfidential00001", "--client-secret-file", secret.path],
            stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
        let session2 = try await Self.newSessionToken(sandbox, "conf@example.com")
        let refused = try await sandbox.idflow(
            ["login-pkce", "--session-token-stdin", "--client-id", "0oaconfidential00001", "--client-secret-file", wrong.path],
            stdin: session2)
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.error?["errorCode"] == "invalid_client")
    }

    // MARK: helpers

    /// Makes the token endpoint answer the next request with `body` (a replayed or forged token response).
    static func replaceNextTokenResponse(_ sandbox: LiveSandbox, with body: JSONValue) async throws {
        let text = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        let (status, _) = try await sandbox.call(
            "POST", "/sandbox/faults",
            json: [
                "pathPrefix": "/oauth2/default/v1/token", "status": 200, "body": .string(text), "contentType": "application/json",
                "count": 1,
            ])
        #expect(status == 201)
    }

    /// A fresh session token for an ACTIVE user, by primary authentication.
    static func newSessionToken(_ sandbox: LiveSandbox, _ username: String) async throws -> String {
        var request = HTTPRequest(method: "POST", url: URL(string: sandbox.orgURL + "/api/v1/authn")!)
        request.setHeader("Content-Type", "application/json")
        request.body = try JSONEncoder().encode(["username": username, "password": "Str0ng-Passw0rd!"])
        let data = try await CurlTransport().send(request).body
        return try #require(try JSONValue(data: data)["sessionToken"]?.stringValue)
    }

    /// A `$BROWSER` that first answers the listener with a code and a state of its own, writing the status it
    /// got to `statusFile`, then (if given) runs the signing-in browser script with the real URL.
    static func forgingBrowserScript(statusFile: String, thenSignIn signIn: String?) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("forge-\(UUID().uuidString).sh")
        try """
        #!/bin/sh
        port=$(printf '%s' "$1" | sed -n 's/.*redirect_uri=http%3A%2F%2F127.0.0.1%3A\\([0-9]*\\).*/\\1/p')
        curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/callback?code=stolen&state=forged" > '\(statusFile)'
        \(signIn.map { "exec '\($0)' \"$1\"" } ?? "")
        """.write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url.path
    }

    /// A `$BROWSER` that signs in with curl: GET the page, POST the form (with `decision` when given, as the
    /// device page's buttons send it), follow the redirect once if there is one, and keep the page the POST
    /// answered in `pageFile` when given. The password reaches it as TEST_SIGNIN_WORD: idflow starts the browser
    /// without any variable whose name says PASSWORD.
    static func browserScript(decision: String? = nil, pageFile: String = "/dev/null") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString).sh")
        try """
        #!/bin/sh
        set -e
        page=$(curl -s "$1")
        txn=$(printf '%s' "$page" | sed -n 's/.*name="txn" value="\\([^"]*\\)".*/\\1/p')
        action=$(printf '%s' "$page" | sed -n 's/.*<form[^>]*action="\\([^"]*\\)".*/\\1/p')
        location=$(curl -s -o '\(pageFile)' -w '%{redirect_url}' --data-urlencode "username=$TEST_USERNAME" \\
            --data-urlencode "password=$TEST_SIGNIN_WORD" --data-urlencode "txn=$txn" \(decision.map { "--data-urlencode decision=\($0)" } ?? "") "$action")
        if [ -n "$location" ]; then curl -s "$location" >/dev/null; fi
        """.write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url.path
    }
}
