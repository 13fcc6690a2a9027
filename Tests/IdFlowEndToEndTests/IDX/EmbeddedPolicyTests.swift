import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `login-pkce --embedded` and `register --embedded` under each of the sandbox's Identity Engine policies
/// (`"idx"` in its configuration): an e-mailed code read from the outbox, an Okta Verify push answered by
/// `idflow resolve` from another process, sign-up turned off, and a transaction the server has forgotten.
@Suite(.serialized)
struct EmbeddedPolicyTests {
    static let password = "Str0ng-Passw0rd!"
    static let manageScope = "openid profile offline_access okta.myAccount.appAuthenticator.manage"

    static func sandbox(_ idx: String) async throws -> LiveSandbox {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("idx-\(UUID().uuidString).json")
        try #"{"idx": \#(idx)}"#.write(to: config, atomically: true, encoding: .utf8)
        return try await LiveSandbox.start(["--config", config.path])
    }

    /// The newest code the sandbox "e-mailed" to `address`.
    static func emailedCode(_ sandbox: LiveSandbox, to address: String) async throws -> String {
        let (_, outbox) = try await sandbox.call("GET", "/sandbox/outbox")
        let mails = (outbox?.arrayValue ?? []).filter { $0["to"]?.stringValue == address && $0["code"] != nil }
        return try #require(mails.last?["code"]?.stringValue)
    }

    func signIn(_ sandbox: LiveSandbox, _ email: String, _ extra: [String] = []) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            ["login-pkce", "--embedded", "--answer", "identifier=\(email)", "--answer", "credentials.passcode=@-"] + extra,
            stdin: Self.password)
    }

    @Test func anEmailedCodeFromTheOutboxFinishesAStoppedSignIn() async throws {
        let sandbox = try await Self.sandbox(#"{"authenticators": ["password", "email"]}"#)
        defer { sandbox.stop() }
        let (userID, _) = try await sandbox.createActiveUser(email: "mailed@example.com", password: Self.password)
        let stopped = try await signIn(sandbox, "mailed@example.com", ["--verbose"])
        #expect(stopped.exitCode == 3, "\(stopped)")
        let pending = try stopped.json()
        #expect(pending["remediation"] == "challenge-authenticator")
        #expect(pending["fields"]?.arrayValue?.first?["name"] == "credentials.passcode")
        let code = try await Self.emailedCode(sandbox, to: "mailed@example.com")
        #expect(code.count == 6, "the code was sent before the script stopped")

        let transaction = try #require(pending["transaction"]?.stringValue)
        let keptFile = sandbox.stateDirectory.appendingPathComponent("idx/\(transaction).json")
        let kept = try JSONValue(data: Data(contentsOf: keptFile))
        for handle in ["stateHandle", "interactionHandle", "codeVerifier"] {
            let value = try #require(kept[handle]?.stringValue)
            #expect(!stopped.stderr.contains(value), "the \(handle) reached the --verbose trace")
        }
        let wrong = try await sandbox.idflow([
            "login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=000000",
        ])
        #expect(wrong.exitCode == 4, "a wrong code in a script: \(wrong)")

        let again = try await signIn(sandbox, "mailed@example.com")
        let retry = try #require(try again.json()["transaction"]?.stringValue)
        // The sandbox, like Okta, sends no second code within 30 s of the last one.
        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(30)])
        let resent = try await sandbox.idflow(["login-pkce", "--embedded", "--resume", retry, "--remediation", "resend"])
        #expect(resent.exitCode == 3, "\(resent)")
        let newCode = try await Self.emailedCode(sandbox, to: "mailed@example.com")
        let resumed = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", retry, "--verbose", "--answer", "credentials.passcode=@-"], stdin: newCode)
        #expect(resumed.exitCode == 0, "\(resumed)")
        #expect(try resumed.json()["id_token_claims"]?["sub"] == .string(userID))

        for trace in [stopped.stderr, resumed.stderr] {
            #expect(!trace.contains(Self.password) && !trace.contains(newCode), "a secret reached the --verbose trace")
        }
        #expect(!resumed.stderr.contains(try #require(resumed.json()["access_token"]?.stringValue)))
        let keptDirectory = sandbox.stateDirectory.appendingPathComponent("idx").path
        // The sign-in given a wrong code is kept for another try (KeptTransactionTests); the finished one is not.
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: keptDirectory)) ?? []) == ["\(transaction).json"],
            "finished runs keep nothing")
    }

    @Test func aSignUpEnrollsTheEmailWithItsCodeAndTheNewUserSignsIn() async throws {
        let sandbox = try await Self.sandbox(#"{"authenticators": ["password", "email"]}"#)
        defer { sandbox.stop() }
        let stopped = try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=joiner@example.com", "--answer", "userProfile.firstName=Jo",
                "--answer", "userProfile.lastName=Iner", "--answer", "authenticator=okta_password", "--answer", "credentials.passcode=@-",
            ], stdin: Self.password)
        #expect(stopped.exitCode == 3, "\(stopped)")
        let transaction = try #require(try stopped.json()["transaction"]?.stringValue)
        let code = try await Self.emailedCode(sandbox, to: "joiner@example.com")
        let finished = try await sandbox.idflow(
            ["register", "--embedded", "--resume", transaction, "--no-store", "--answer", "credentials.passcode=\(code)"])
        #expect(finished.exitCode == 0, "\(finished)")
        let subject = try #require(try finished.json()["id_token_claims"]?["sub"]?.stringValue)
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path))

        let stoppedSignIn = try await signIn(sandbox, "joiner@example.com")
        let signInTransaction = try #require(try stoppedSignIn.json()["transaction"]?.stringValue)
        let signInCode = try await Self.emailedCode(sandbox, to: "joiner@example.com")
        let signedIn = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", signInTransaction, "--answer", "credentials.passcode=\(signInCode)"])
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["id_token_claims"]?["sub"] == .string(subject))
    }

    /// A user whose push authenticator is this machine (`idflow enroll` after a manage-scope login).
    func enrolledUser(_ sandbox: LiveSandbox, _ email: String) async throws {
        let (_, session) = try await sandbox.createActiveUser(email: email, password: Self.password)
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--scope", Self.manageScope], stdin: session)
        guard login.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "login-pkce", result: login) }
        let enroll = try await sandbox.idflow(["enroll", "--name", "idx-runner"])
        guard enroll.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "enroll", result: enroll) }
    }

    func firstPendingChallenge(_ sandbox: LiveSandbox) async throws -> JSONValue {
        for _ in 0..<100 {
            if let first = try? await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.first { return first }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw LiveSandbox.StepFailed(step: "challenges", result: try await sandbox.idflow(["challenges"]))
    }

    @Test func anOktaVerifyPushIsApprovedByResolveWhileTheSignInWaits() async throws {
        let sandbox = try await Self.sandbox(#"{"authenticators": ["password", "okta_verify"]}"#)
        defer { sandbox.stop() }
        try await enrolledUser(sandbox, "verified@example.com")
        async let waiting = signIn(sandbox, "verified@example.com", ["--no-store", "--mfa-timeout", "60"])
        let challenge = try await firstPendingChallenge(sandbox)
        #expect(challenge["transactionType"] == "LOGIN")
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        let login = try await waiting
        #expect(login.exitCode == 0, "\(login)")
        #expect(login.stderr.contains("waiting up to 60 s for Okta Verify"))
        #expect(try login.json()["token_type"] == "Bearer")
    }

    @Test func aDeniedPushExits8AndAnUnansweredOneExits9() async throws {
        let sandbox = try await Self.sandbox(#"{"authenticators": ["password", "okta_verify"]}"#)
        defer { sandbox.stop() }
        try await enrolledUser(sandbox, "doubted@example.com")
        async let denied = signIn(sandbox, "doubted@example.com", ["--no-store"])
        _ = try await firstPendingChallenge(sandbox)
        let deny = try await sandbox.idflow(["resolve", "--next", "--deny"])
        #expect(deny.exitCode == 0, "\(deny)")
        let refused = try await denied
        #expect(refused.exitCode == 8, "\(refused)")
        #expect(refused.error?["message"] == "You have chosen to reject this login.")

        let unanswered = try await signIn(sandbox, "doubted@example.com", ["--no-store", "--mfa-timeout", "2"])
        #expect(unanswered.exitCode == 9, "\(unanswered)")
        #expect(unanswered.stderr.contains("cancelled the sign-in on the server"))
        let listed = try await sandbox.idflow(["challenges"])
        #expect(try listed.json()["challenges"]?.arrayValue?.isEmpty == true, "the cancelled sign-in withdrew its push")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileThePushWaitsCancelsTheSignInAndExits130(signal: Int32) async throws {
        let sandbox = try await Self.sandbox(#"{"authenticators": ["password", "okta_verify"]}"#)
        defer { sandbox.stop() }
        try await enrolledUser(sandbox, "impatient@example.com")
        let passwordFile = sandbox.home.appendingPathComponent("password.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        let session = try InteractiveSession.start(
            [
                "login-pkce", "--embedded", "--answer", "identifier=impatient@example.com", "--answer",
                "credentials.passcode=@\(passwordFile.path)",
            ], environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("waiting up to") }
        _ = try await firstPendingChallenge(sandbox)
        kill(session.processIdentifier, signal)
        let login = try await session.finish()
        #expect(login.exitCode == 130, "\(login)")
        #expect(login.error?["kind"] == "interrupted")
        #expect(login.stderr.contains("cancelled the sign-in on the server"))
        let listed = try await sandbox.idflow(["challenges"])
        #expect(try listed.json()["challenges"]?.arrayValue?.isEmpty == true, "the cancelled sign-in withdrew its push")
    }

    @Test func aPolicyWithoutSignUpSaysSo() async throws {
        let sandbox = try await Self.sandbox(#"{"signUp": false}"#)
        defer { sandbox.stop() }
        let signUp = try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=nope@example.com", "--answer", "userProfile.firstName=No",
                "--answer", "userProfile.lastName=Pe", "--answer", "credentials.passcode=@-",
            ], stdin: Self.password)
        #expect(signUp.exitCode == 3, "\(signUp)")
        #expect(signUp.error?["message"]?.stringValue?.contains("no self-service sign-up") == true)
    }

    @Test func aTransactionTheServerHasForgottenIsAnExpiredSignIn() async throws {
        let sandbox = try await Self.sandbox(#"{"authenticators": ["password"]}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "slow@example.com", password: Self.password)
        let stopped = try await sandbox.idflow(["login-pkce", "--embedded", "--answer", "identifier=slow@example.com"])
        let transaction = try #require(try stopped.json()["transaction"]?.stringValue)
        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(11 * 60)])
        let late = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-"], stdin: Self.password)
        #expect(late.exitCode == 4, "\(late)")
        #expect(late.error?["message"] == "The session has expired.")
        #expect(late.error?["hint"]?.stringValue?.contains("start") == true)
        let again = try await sandbox.idflow(["login-pkce", "--embedded", "--resume", transaction])
        #expect(again.exitCode == 5, "the kept transaction is gone: \(again)")
    }
}
