import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

/// Every Identity Engine authenticator a terminal can serve, end to end: the built `idflow` against a real
/// `idflow sandbox` with a policy that names it, enrolled at sign-up and then used to sign in, from a script.
@Suite(.serialized)
struct AuthenticatorTests {
    static let password = EmbeddedPolicyTests.password

    static func signUp(_ sandbox: LiveSandbox, _ email: String, _ extra: [String], stdin: String = password) async throws
        -> IdFlowBinary.Result
    {
        try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=\(email)", "--answer", "userProfile.firstName=Al",
                "--answer", "userProfile.lastName=Ice", "--answer", "credentials.passcode=@-",
            ] + extra, stdin: stdin)
    }

    /// A sign-up where the password is one of several authenticators to enroll: say it comes first, so the password
    /// answer is not taken for another's code.
    static func signUpPasswordFirst(_ sandbox: LiveSandbox, _ email: String, _ extra: [String]) async throws -> IdFlowBinary.Result {
        try await signUp(sandbox, email, ["--answer", "authenticator=okta_password"] + extra)
    }

    /// The newest code the sandbox sent to `to` (an address or a phone number), with its channel.
    static func sentCode(_ sandbox: LiveSandbox, to: String) async throws -> (code: String, channel: String?) {
        let (_, outbox) = try await sandbox.call("GET", "/sandbox/outbox")
        let message = try #require((outbox?.arrayValue ?? []).last { $0["to"]?.stringValue == to && $0["code"] != nil })
        return (try #require(message["code"]?.stringValue), message["channel"]?.stringValue)
    }

    /// Google Authenticator with nobody at a phone: the sign-up keeps the seed and confirms it, the sign-in right after
    /// (inside the same 30-second step) waits for a fresh code and passes; `idflow totp` shows the code; the seed is
    /// in no output and no trace.
    @Test func anAuthenticatorAppIsEnrolledAndUsedByAScriptAlone() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password"], "optional": ["google_otp"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let seedFile = sandbox.home.appendingPathComponent("otp/ada.totp")
        try FileManager.default.createDirectory(at: seedFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let enrolled = try await Self.signUp(sandbox, "ada@example.com", ["--totp-secret-file", seedFile.path, "--verbose"])
        #expect(enrolled.exitCode == 0, "\(enrolled)")
        let seed = try String(contentsOf: seedFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let mode = try FileManager.default.attributesOfItem(atPath: seedFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let (_, listed) = try await sandbox.call("GET", "/sandbox/users/ada@example.com/authenticators")
        let google = listed?["authenticators"]?.arrayValue?.first { $0["key"] == "google_otp" }
        #expect(google?["sharedSecret"]?.stringValue == seed, "the seed kept is the one the org holds")
        #expect(!enrolled.stderr.contains(seed) && !enrolled.stdout.contains(seed), "the seed reached an output")
        #expect(!enrolled.stderr.contains("iVBORw0KGgo"), "the QR code's picture reached the trace")

        let signedIn = try await sandbox.idflow(
            [
                "login-pkce", "--embedded", "--answer", "identifier=ada@example.com", "--answer", "credentials.passcode=@-",
                "--totp-secret-file", seedFile.path, "--verbose",
            ], stdin: Self.password)
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["id_token_claims"]?["sub"] == (try enrolled.json()["id_token_claims"]?["sub"]))
        #expect(!signedIn.stderr.contains(seed))
        let code = TOTP(secret: try #require(TOTPSecret(base32: seed)))
        let step = code.step(at: Date())
        for candidate in [code.code(forStep: step), code.code(forStep: step - 1)] {
            #expect(!signedIn.stderr.contains("\"\(candidate)\""), "a code reached the trace")
        }

        let shown = try await sandbox.idflow(["totp", "--secret-file", seedFile.path])
        #expect(shown.exitCode == 0, "\(shown)")
        let now = code.step(at: Date())
        #expect([code.code(forStep: now), code.code(forStep: now - 1)].contains(try shown.json()["code"]?.stringValue ?? ""))

        let again = try await Self.signUp(sandbox, "bea@example.com", ["--totp-secret-file", seedFile.path])
        #expect(again.exitCode == 12, "an existing seed file is never overwritten: \(again)")
        #expect(try String(contentsOf: seedFile, encoding: .utf8).hasPrefix(seed))
    }

    /// The phone: enrolled at sign-up by voice, then a sign-in by SMS whose first code is replaced by a resend (the
    /// old one refused), and a sign-in with the code of the resend.
    @Test func aPhoneIsEnrolledByVoiceAndASignInTakesTheTextedCode() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(#"{"enroll": {"required": ["password", "phone"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let number = "+15555550123"
        let badNumber = try await Self.signUpPasswordFirst(
            sandbox, "bob@example.com", ["--answer", "phoneNumber=555-0123", "--answer", "methodType=voice"])
        #expect(badNumber.exitCode != 0, "\(badNumber)")
        #expect(badNumber.stderr.contains("Invalid Phone Number"), "\(badNumber.stderr)")

        let stopped = try await Self.signUpPasswordFirst(
            sandbox, "bob@example.com", ["--answer", "phoneNumber=\(number)", "--answer", "methodType=voice"])
        #expect(stopped.exitCode == 3, "\(stopped)")
        let enrollment = try #require(try stopped.json()["transaction"]?.stringValue)
        let voice = try await Self.sentCode(sandbox, to: number)
        #expect(voice.channel == "voice")
        let enrolled = try await sandbox.idflow(
            ["register", "--embedded", "--resume", enrollment, "--answer", "credentials.passcode=@-"], stdin: voice.code)
        #expect(enrolled.exitCode == 0, "\(enrolled)")

        let signIn = ["login-pkce", "--embedded", "--answer", "identifier=bob@example.com", "--answer", "credentials.passcode=@-"]
        let waiting = try await sandbox.idflow(signIn + ["--answer", "methodType=sms"], stdin: Self.password)
        #expect(waiting.exitCode == 3, "\(waiting)")
        let transaction = try #require(try waiting.json()["transaction"]?.stringValue)
        let first = try await Self.sentCode(sandbox, to: number)
        #expect(first.channel == "sms")
        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(30)])
        let resent = try await sandbox.idflow(["login-pkce", "--embedded", "--resume", transaction, "--remediation", "resend"])
        #expect(resent.exitCode == 3, "\(resent)")
        let second = try await Self.sentCode(sandbox, to: number)
        #expect(second.code != first.code, "a resend sends a new code")
        let stale = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-"], stdin: first.code)
        #expect(stale.exitCode == 4, "the replaced code is refused: \(stale)")

        let again = try await sandbox.idflow(signIn + ["--answer", "methodType=sms"], stdin: Self.password)
        let retry = try #require(try again.json()["transaction"]?.stringValue)
        let fresh = try await Self.sentCode(sandbox, to: number)
        let signedIn = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", retry, "--answer", "credentials.passcode=@-"], stdin: fresh.code)
        #expect(signedIn.exitCode == 0, "\(signedIn)")
    }

    /// A security question of one's own and Google Authenticator, both enrolled at sign-up; the sign-in chooses the
    /// question among the two, a wrong answer is refused and the right one passes.
    @Test func aSecurityQuestionIsChosenAmongSeveralAndAnswered() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password", "security_question"], "optional": ["google_otp"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let seedFile = sandbox.home.appendingPathComponent("cy.totp")
        let answerFile = sandbox.home.appendingPathComponent("answer.txt")
        try "Lima".write(to: answerFile, atomically: true, encoding: .utf8)
        let short = try await Self.signUpPasswordFirst(
            sandbox, "cy@example.com", ["--answer", "credentials.question=Where were you born?", "--answer", "credentials.answer=Rio"])
        #expect(short.exitCode == 3, "an answer under 4 characters: \(short)")
        #expect(short.error?["message"]?.stringValue?.contains("4") == true, "the server's own words: \(short)")

        let enrolled = try await Self.signUpPasswordFirst(
            sandbox, "cy@example.com",
            [
                "--answer", "credentials.question=Where were you born?", "--answer", "credentials.answer=@\(answerFile.path)",
                "--totp-secret-file", seedFile.path,
            ])
        #expect(enrolled.exitCode == 0, "\(enrolled)")
        #expect(FileManager.default.fileExists(atPath: seedFile.path), "the optional authenticator app was enrolled too")

        let signIn = [
            "login-pkce", "--embedded", "--answer", "identifier=cy@example.com", "--answer", "credentials.passcode=@-", "--answer",
            "authenticator=security_question",
        ]
        let wrong = try await sandbox.idflow(signIn + ["--answer", "credentials.answer=Oslo"], stdin: Self.password)
        #expect(wrong.exitCode == 4 || wrong.exitCode == 3, "\(wrong)")
        let right = try await sandbox.idflow(signIn + ["--answer", "credentials.answer=@\(answerFile.path)"], stdin: Self.password)
        #expect(right.exitCode == 0, "\(right)")
    }

    /// Okta Verify's number challenge: the sign-in shows the number, `challenges` lists the three to pick from,
    /// `resolve` refuses to approve without one, a wrong pick refuses the sign-in (exit 8), the right one passes.
    @Test func theNumberChallengeIsAnsweredWithTheNumberTheSignInShows() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password", "okta_verify"]}, "signIn": {"factors": 2}, "numberChallenge": true}"#)
        defer { sandbox.stop() }
        let policy = EmbeddedPolicyTests()
        try await policy.enrolledUser(sandbox, "dee@example.com")
        let passwordFile = sandbox.home.appendingPathComponent("password.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        let arguments = [
            "login-pkce", "--embedded", "--no-store", "--answer", "identifier=dee@example.com", "--answer",
            "credentials.passcode=@\(passwordFile.path)", "--answer", "methodType=push",
        ]

        func shownNumber(_ session: InteractiveSession) async throws -> String {
            let line = try await session.waitForStderrLine { $0.contains("asks for the number") }
            let after = try #require(line.range(of: "asks for the number ")).upperBound
            return String(line[after...].prefix { $0.isNumber })
        }

        let refused = try InteractiveSession.start(arguments, environment: sandbox.environment)
        let number = try await shownNumber(refused)
        let challenge = try await policy.firstPendingChallenge(sandbox)
        let offered = (challenge["challengeTextItems"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(offered.count == 3 && offered.contains(number), "\(challenge)")
        let withoutNumber = try await sandbox.idflow(["resolve", "--next", "--approve"])
        #expect(withoutNumber.exitCode == 64, "\(withoutNumber)")
        #expect(withoutNumber.stderr.contains("number challenge"))
        let wrong = try #require(offered.first { $0 != number })
        let wrongPick = try await sandbox.idflow(["resolve", "--next", "--approve", "--number", wrong])
        #expect(wrongPick.exitCode != 0, "\(wrongPick)")
        let refusedLogin = try await refused.finish()
        #expect(refusedLogin.exitCode == 8, "\(refusedLogin)")

        let approved = try InteractiveSession.start(arguments, environment: sandbox.environment)
        let second = try await shownNumber(approved)
        _ = try await policy.firstPendingChallenge(sandbox)
        let rightPick = try await sandbox.idflow(["resolve", "--next", "--approve", "--number", second])
        #expect(rightPick.exitCode == 0, "\(rightPick)")
        let login = try await approved.finish()
        #expect(login.exitCode == 0, "\(login)")
    }

    /// Okta Verify's code: `enroll --totp-secret-file` keeps the seed the org sends once, and a sign-in that finds
    /// Okta Verify chooses its code (`methodType` totp) and answers `credentials.totp` from the file, sending no push.
    @Test func oktaVerifysCodeIsKeptAtEnrollmentAndAnswersTheSignIn() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password", "okta_verify"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let (_, session) = try await sandbox.createActiveUser(email: "eve@example.com", password: Self.password)
        let login = try await sandbox.idflow(
            ["login-pkce", "--session-token-stdin", "--scope", EmbeddedPolicyTests.manageScope], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        let seedFile = sandbox.home.appendingPathComponent("eve-okta-verify.totp")
        let enrolled = try await sandbox.idflow(["enroll", "--name", "eve-laptop", "--totp-secret-file", seedFile.path])
        #expect(enrolled.exitCode == 0, "\(enrolled)")
        let seed = try String(contentsOf: seedFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let (_, listed) = try await sandbox.call("GET", "/sandbox/users/eve@example.com/authenticators")
        let verify = listed?["authenticators"]?.arrayValue?.first { $0["key"] == "okta_verify" }
        #expect(verify?["methods"]?["totp"]?["sharedSecret"]?.stringValue == seed)
        #expect(!enrolled.stdout.contains(seed) && !enrolled.stderr.contains(seed))
        let again = try await sandbox.idflow(["enroll", "--name", "eve-laptop", "--totp-secret-file", seedFile.path])
        #expect(again.exitCode == 12, "an existing seed file stops the enrollment before it is made: \(again)")

        let signedIn = try await sandbox.idflow(
            [
                "login-pkce", "--embedded", "--no-store", "--answer", "identifier=eve@example.com", "--answer", "credentials.passcode=@-",
                "--totp-secret-file", seedFile.path,
            ], stdin: Self.password)
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        let pending = try await sandbox.idflow(["challenges"])
        #expect(try pending.json()["challenges"]?.arrayValue?.isEmpty == true, "no push was sent")
    }
}
