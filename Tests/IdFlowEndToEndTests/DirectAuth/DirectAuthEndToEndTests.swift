import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// `login-direct` as ops use it, the built idflow against `idflow sandbox`: a code from a kept seed (never one
/// twice), and a push with a number challenge answered from a second idflow process that enrolled this machine.
@Suite(.serialized)
struct DirectAuthEndToEndTests {
    static let manageScope = "openid profile offline_access okta.myAccount.appAuthenticator.manage"
    static let password = "Str0ng-Passw0rd!"

    /// A sandbox (with `config` as its `--config`) in which `email` has enrolled this machine as its push
    /// authenticator (Okta Verify, whose TOTP seed is kept in `seedFile` when given).
    static func enrolled(_ email: String, config: String? = nil, seedFile: URL? = nil) async throws -> LiveSandbox {
        var extra: [String] = []
        if let config {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString).json")
            try config.write(to: file, atomically: true, encoding: .utf8)
            extra = ["--config", file.path]
        }
        let sandbox = try await LiveSandbox.start(extra)
        let (_, session) = try await sandbox.createActiveUser(email: email, password: password)
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--scope", manageScope], stdin: session)
        guard login.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "login-pkce", result: login) }
        var arguments = ["enroll", "--name", "ci-runner-7"]
        if let seedFile { arguments += ["--totp-secret-file", seedFile.path] }
        let enroll = try await sandbox.idflow(arguments)
        guard enroll.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "enroll", result: enroll) }
        return sandbox
    }

    /// The first push challenge `challenges` lists, polled while a sign-in in another process sends it.
    static func firstPendingChallenge(_ sandbox: LiveSandbox) async throws -> JSONValue {
        for _ in 0..<50 {
            if let first = try? await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.first { return first }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw LiveSandbox.StepFailed(step: "challenges", result: try await sandbox.idflow(["challenges"]))
    }

    /// Two sign-ins from one seed, one right after the other: the sandbox accepts a step's code once, so both
    /// passing shows the second did not resend the first's code (it waited for the next step when it had to).
    @Test func aCodeFromTheSeedSignsInAndIsNeverSentTwice() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("direct-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let seedFile = home.appendingPathComponent("ov.totp")
        let sandbox = try await Self.enrolled("otp@example.com", seedFile: seedFile)
        defer { sandbox.stop() }
        let arguments = ["login-direct", "--username", "otp@example.com", "--totp-secret-file", seedFile.path]
        let first = try await sandbox.idflow(arguments)
        #expect(first.exitCode == 0, "\(first)")
        let second = try await sandbox.idflow(arguments)
        #expect(second.exitCode == 0, "\(second)")
        #expect(try first.json()["id_token_claims"]?["sub"] == (try second.json()["id_token_claims"]?["sub"]))
        #expect(try second.json()["id_token_claims"]?["amr"]?.arrayValue?.contains("otp") == true, "\(second)")

        // Stored like any login's: `token get` reads it.
        let token = try await sandbox.idflow(["token", "get"])
        #expect(token.exitCode == 0, "\(token)")
        #expect(try token.json()["access_token"] == (try second.json()["access_token"]))
    }

    @Test func aPushWithANumberIsApprovedFromASecondProcess() async throws {
        let sandbox = try await Self.enrolled("push@example.com", config: #"{"directAuth": {"numberChallenge": true}}"#)
        defer { sandbox.stop() }
        let session = try InteractiveSession.start(
            ["login-direct", "--username", "push@example.com", "--oob", "push", "--no-store", "--quiet"], environment: sandbox.environment)
        let line = try await session.waitForStderrLine { $0.contains("on the phone to approve") }
        let after = try #require(line.range(of: "Pick ")).upperBound
        let number = String(line[after...].prefix { $0.isNumber })

        let challenge = try await Self.firstPendingChallenge(sandbox)
        let offered = (challenge["challengeTextItems"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(offered.contains(number), "\(challenge)")
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve", "--number", number])
        #expect(resolved.exitCode == 0, "\(resolved)")

        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["binding"] == ["method": "transfer", "number": .string(number)])
        #expect(try login.json()["id_token_claims"]?["sub"] != nil)
    }

    /// `slow_down` (§5.2): with the sandbox clock frozen, the second poll looks as if it came at once, so the sandbox
    /// answers `slow_down` and counts it. The client polls 5 s less often from then on, and once the clock has
    /// moved on, the approved push signs in. Every `slow_down` the sandbox counted is one the client reported.
    @Test func slowDownIsHonouredAndCountedAtTheSandbox() async throws {
        let sandbox = try await Self.enrolled("slow@example.com", config: #"{"freezeClock": true, "directAuth": {"intervalSeconds": 1}}"#)
        defer { sandbox.stop() }
        let session = try InteractiveSession.start(
            ["login-direct", "--username", "slow@example.com", "--oob", "push", "--no-store"], environment: sandbox.environment)
        let slowed = try await session.waitForStderrLine { $0.contains("poll less often") }
        #expect(slowed.contains("polling every 6 s"), "1 s + 5 s: \(slowed)")
        #expect(try await sandbox.call("GET", "/sandbox/records").1?["directAuthSlowDowns"]?.intValue ?? 0 >= 1)

        _ = try await Self.firstPendingChallenge(sandbox)
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(60)])
        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        let reported = login.stderr.components(separatedBy: "poll less often").count - 1
        #expect(try await sandbox.call("GET", "/sandbox/records").1?["directAuthSlowDowns"]?.intValue == reported, "\(login.stderr)")
    }

    /// MFA attestation (§8): a confidential client at the org server asks the server only to vouch for the MFA; the
    /// answer is printed as sent (an ID token, `access_token` null) and validated, stderr says so, and nothing is stored.
    @Test func anMFAAttestationPrintsTheIDTokenAloneAndStoresNothing() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("direct-attest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let seedFile = home.appendingPathComponent("ov.totp")
        let secretFile = home.appendingPathComponent("client-secret")
        try "attest-secret-0001".write(to: secretFile, atomically: true, encoding: .utf8)
        let client = "0oaconfidential00001"
        let config = """
            {"confidentialClientId": "\(client)", "confidentialClientSecret": "attest-secret-0001",
             "directAuth": {"grants": {"\(client)": ["otp"]}}}
            """
        let sandbox = try await Self.enrolled("attest@example.com", config: config, seedFile: seedFile)
        defer { sandbox.stop() }
        let confidential = [
            "OKTA_OAUTH2_ISSUER": sandbox.orgURL, "OKTA_OAUTH2_CLIENTID": client, "IDFLOW_CLIENT_SECRET_FILE": secretFile.path,
        ]
        let before = try await sandbox.idflow(["token", "get"]).json()["access_token"]
        let attested = try await sandbox.idflow(
            [
                "login-direct", "--username", "attest@example.com", "--totp-secret-file", seedFile.path, "--acr-values",
                "urn:okta:app:mfa:attestation",
            ], environment: confidential)
        #expect(attested.exitCode == 0, "\(attested)")
        let json = try attested.json()
        #expect(json["access_token"] == .null && json["mfa_attestation"] == true && json["scope"] == "openid", "\(json)")
        #expect(json["id_token_claims"]?["acr"] == "urn:okta:app:mfa:attestation")
        #expect(json["id_token_claims"]?["amr"] == ["otp"])
        #expect(attested.stderr.contains("ID token alone") && attested.stderr.contains("nothing was stored"), "\(attested.stderr)")
        // The profile's login (the enrollment's) is the one it was.
        #expect(try await sandbox.idflow(["token", "get"]).json()["access_token"] == before)

        // The public app cannot ask for one: the server's refusal, word for word.
        let publicApp = try await sandbox.idflow(
            [
                "login-direct", "--username", "attest@example.com", "--totp-secret-file", seedFile.path, "--acr-values",
                "urn:okta:app:mfa:attestation", "--no-store",
            ], environment: ["OKTA_OAUTH2_ISSUER": sandbox.orgURL])
        #expect(publicApp.exitCode != 0)
        #expect(publicApp.stderr.contains("Client authentication is required for MFA attestation requests."), "\(publicApp)")
    }

    @Test func aPasswordThenAPushAnsweredFromASecondProcess() async throws {
        let sandbox = try await Self.enrolled("mfa@example.com")
        defer { sandbox.stop() }
        async let signIn = sandbox.idflow(
            ["login-direct", "--username", "mfa@example.com", "--password-stdin", "--mfa", "push"], stdin: Self.password)
        _ = try await Self.firstPendingChallenge(sandbox)
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        let login = try await signIn
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["binding"] == nil)
        #expect(try login.json()["id_token_claims"]?["amr"]?.arrayValue?.contains("pwd") == true, "\(login)")
    }

    @Test func aSecondFactorNoScriptChoseIsExit3NamingTheChoices() async throws {
        let sandbox = try await Self.enrolled("choose@example.com")
        defer { sandbox.stop() }
        let login = try await sandbox.idflow(
            ["login-direct", "--username", "choose@example.com", "--password-stdin"], stdin: Self.password)
        #expect(login.exitCode == 3, "\(login)")
        #expect(login.error?["hint"]?.stringValue?.contains("--mfa") == true, "\(login)")
        #expect(login.stdout.isEmpty)
    }

    @Test func aDeniedPushIsExit8AndStoresNothing() async throws {
        let sandbox = try await Self.enrolled("deny@example.com")
        defer { sandbox.stop() }
        let before = try sandbox.storedLogin()
        async let signIn = sandbox.idflow(["login-direct", "--username", "deny@example.com", "--oob", "push"])
        _ = try await Self.firstPendingChallenge(sandbox)
        let resolved = try await sandbox.idflow(["resolve", "--next", "--deny"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        let login = try await signIn
        #expect(login.exitCode == 8, "\(login)")
        #expect(login.stdout.isEmpty)
        #expect(try sandbox.storedLogin() == before, "the enrollment's login is left as it was")
    }

    @Test func aPushNobodyAnswersEndsWhenItsCodeExpires() async throws {
        let sandbox = try await Self.enrolled("silent@example.com", config: #"{"directAuth": {"expiresInSeconds": 2}}"#)
        defer { sandbox.stop() }
        let login = try await sandbox.idflow(["login-direct", "--username", "silent@example.com", "--oob", "push", "--no-store"])
        #expect(login.exitCode == 9, "\(login)")
        #expect(login.stdout.isEmpty)
    }

    @Test func aGrantTheAppMayNotUseIsExit4NamingIt() async throws {
        let sandbox = try await Self.enrolled(
            "grant@example.com", config: #"{"directAuth": {"grants": {"\#(SandboxConfiguration.defaultClientId)": ["password"]}}}"#)
        defer { sandbox.stop() }
        let login = try await sandbox.idflow(["login-direct", "--username", "grant@example.com", "--otp-stdin"], stdin: "123456")
        #expect(login.exitCode == 4, "\(login)")
        #expect(login.error?["hint"]?.stringValue?.contains("\"OTP\"") == true, "\(login)")
    }

    @Test func ctrlCWhileThePushWaitsIsExit130AndStoresNothing() async throws {
        let sandbox = try await Self.enrolled("impatient@example.com")
        defer { sandbox.stop() }
        let before = try sandbox.storedLogin()
        let session = try InteractiveSession.start(
            ["login-direct", "--username", "impatient@example.com", "--oob", "push"], environment: sandbox.environment)
        _ = try await Self.firstPendingChallenge(sandbox)
        _ = try await session.waitForStderrLine { $0.contains("Waiting for the push") }
        kill(session.processIdentifier, SIGINT)
        let login = try await session.finish()
        #expect(login.exitCode == 130, "\(login)")
        #expect(login.error?["kind"] == "interrupted")
        #expect(login.stdout.isEmpty)
        #expect(try sandbox.storedLogin() == before)
    }

    /// A phone enrolled through the Identity Engine sign-up; the SMS code of `login-direct --oob sms` is read from the
    /// sandbox's outbox and piped in once it was sent (idflow reads stdin only then).
    @Test func anSMSCodeFromTheOutboxIsPipedIn() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(#"{"enroll": {"required": ["password", "phone"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let number = "+15555550188"
        let stopped = try await AuthenticatorTests.signUpPasswordFirst(
            sandbox, "sms@example.com", ["--answer", "phoneNumber=\(number)", "--answer", "methodType=sms"])
        let enrollment = try #require(try stopped.json()["transaction"]?.stringValue, "\(stopped)")
        let enrolled = try await sandbox.idflow(
            ["register", "--embedded", "--resume", enrollment, "--answer", "credentials.passcode=@-"],
            stdin: try await AuthenticatorTests.sentCode(sandbox, to: number).code)
        #expect(enrolled.exitCode == 0, "\(enrolled)")
        let sent = try await sandbox.call("GET", "/sandbox/outbox").1?.arrayValue?.count ?? 0

        let session = try InteractiveSession.start(
            ["login-direct", "--username", "sms@example.com", "--oob", "sms", "--binding-code-stdin", "--no-store", "--verbose"],
            environment: sandbox.environment)
        var code: String?
        for _ in 0..<50 where code == nil {
            let outbox = try await sandbox.call("GET", "/sandbox/outbox").1?.arrayValue ?? []
            if outbox.count > sent { code = outbox.last { $0["to"]?.stringValue == number }?["code"]?.stringValue }
            if code == nil { try await Task.sleep(for: .milliseconds(200)) }
        }
        let login = try await session.finish(stdin: try #require(code) + "\n")
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["binding"] == ["method": "prompt"])
        // The --verbose trace shows the calls, never the code typed or the handle that buys the tokens.
        let typed = try #require(code)
        #expect(login.stderr.contains("binding_code=<redacted>") && !login.stderr.contains(typed), "\(login.stderr)")
        #expect(login.stderr.contains("oob_code"))
    }

    /// A script with no code stops (exit 3) with the transaction on stdout; once the SMS arrives, `--resume` with
    /// the code signs in, and no second SMS was sent.
    @Test func aStoppedSMSSignInResumesWithTheCodeFromTheOutbox() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(#"{"enroll": {"required": ["password", "phone"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let number = "+15555550177"
        let stopped = try await AuthenticatorTests.signUpPasswordFirst(
            sandbox, "resume@example.com", ["--answer", "phoneNumber=\(number)", "--answer", "methodType=sms"])
        let enrollment = try #require(try stopped.json()["transaction"]?.stringValue, "\(stopped)")
        let enrolled = try await sandbox.idflow(
            ["register", "--embedded", "--resume", enrollment, "--answer", "credentials.passcode=@-"],
            stdin: try await AuthenticatorTests.sentCode(sandbox, to: number).code)
        #expect(enrolled.exitCode == 0, "\(enrolled)")

        let stop = try await sandbox.idflow(["login-direct", "--username", "resume@example.com", "--oob", "sms"])
        #expect(stop.exitCode == 3, "\(stop)")
        let transaction = try #require(try stop.json()["transaction"]?.stringValue, "\(stop)")
        #expect(try stop.json()["channel"] == "sms")
        #expect(stop.stderr.contains("--resume \(transaction) --binding-code-stdin"), "\(stop.stderr)")
        let sent = try await sandbox.call("GET", "/sandbox/outbox").1?.arrayValue?.count ?? 0
        let code = try await AuthenticatorTests.sentCode(sandbox, to: number).code

        let login = try await sandbox.idflow(["login-direct", "--resume", transaction, "--binding-code-stdin"], stdin: code + "\n")
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["binding"] == ["method": "prompt"])
        #expect(try await sandbox.call("GET", "/sandbox/outbox").1?.arrayValue?.count == sent, "no second code was sent")
        let again = try await sandbox.idflow(["login-direct", "--resume", transaction, "--binding-code-stdin"], stdin: code + "\n")
        #expect(again.exitCode == 5, "a finished sign-in is forgotten: \(again)")
    }

    @Test func aPasswordThenACodeFromTheSeed() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("direct-mfa-otp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let seedFile = home.appendingPathComponent("ov.totp")
        let sandbox = try await Self.enrolled("mfaotp@example.com", seedFile: seedFile)
        defer { sandbox.stop() }
        let passwordFile = home.appendingPathComponent("password.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        let login = try await sandbox.idflow([
            "login-direct", "--username", "mfaotp@example.com", "--password-file", passwordFile.path, "--mfa", "otp",
            "--totp-secret-file", seedFile.path,
        ])
        #expect(login.exitCode == 0, "\(login)")
        let amr = try login.json()["id_token_claims"]?["amr"]?.arrayValue ?? []
        #expect(amr.contains("pwd") && amr.contains("otp"), "\(login)")
    }

    /// `--dpop` binds the tokens to a new key, as every login's (an app in `dpopBoundAccessTokens`); `api` then
    /// presents them with a proof.
    @Test func dpopBindsTheTokensAndTheAPICallPresentsThem() async throws {
        let config = #"{"dpopBoundAccessTokens": ["\#(SandboxConfiguration.defaultClientId)"]}"#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("direct-dpop-\(UUID().uuidString).json")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let sandbox = try await LiveSandbox.start(["--config", file.path])
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "dpop@example.com", password: Self.password)
        let login = try await sandbox.idflow(
            ["login-direct", "--username", "dpop@example.com", "--password-stdin", "--dpop"], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["token_type"] == "DPoP", "\(login)")
        let resource = try #require(sandbox.info["resource"]?["url"]?.stringValue)
        let called = try await sandbox.idflow(["api", resource])
        #expect(called.exitCode == 0, "\(called)")
    }
}
