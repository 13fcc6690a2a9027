import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The screens after the factors, end to end (the built `idflow` against a real `idflow sandbox`): an enrollment
/// put off while its grace lasts and enforced after it (the sandbox clock moved), consent granted with `--consent`
/// and refused to a script without it, and Okta Verify's push chosen by default with its number challenge answered
/// by a second process.
@Suite(.serialized)
struct ScreensTests {
    static let password = EmbeddedPolicyTests.password

    func signIn(_ sandbox: LiveSandbox, _ email: String, _ extra: [String] = []) async throws -> IdFlowBinary.Result {
        try await EmbeddedPolicyTests().signIn(sandbox, email, ["--no-store"] + extra)
    }

    /// A phone the policy requires, with a grace period a day past the sandbox clock's start: skipped (and said so)
    /// while it lasts, `--enroll-now` stops at the enrollment instead, and two days on the enrollment is enforced.
    @Test func aGracePeriodEnrollmentIsSkippedThenEnforcedAfterItsDate() async throws {
        let expiry = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password", "phone"]}, "gracePeriods": {"phone": {"expiry": "\#(expiry)"}}}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "later@example.com", password: Self.password)

        let skipped = try await signIn(sandbox, "later@example.com")
        #expect(skipped.exitCode == 0, "\(skipped)")
        #expect(skipped.stderr.contains("skipped enrolling Phone (until "), "\(skipped.stderr)")
        #expect(skipped.stderr.contains("--enroll-now"))

        let now = try await signIn(sandbox, "later@example.com", ["--enroll-now"])
        #expect(now.exitCode == 3, "\(now)")
        #expect(try now.json()["remediation"] == "authenticator-enrollment-data", "the phone, the only one to enroll: \(now)")

        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(2 * 86_400)])
        let enforced = try await signIn(sandbox, "later@example.com")
        #expect(enforced.exitCode == 3, "the grace is over: \(enforced)")
        #expect(try enforced.json()["remediation"] == "authenticator-enrollment-data", "\(enforced)")
        #expect(!enforced.stderr.contains("skipped"))
    }

    /// An app that asks for consent: a script without `--consent` stops (exit 8) naming the flag and the scopes,
    /// `--consent` grants it and signs in, and the next sign-in is not asked again (the grant is remembered).
    @Test func consentIsGrantedWithTheFlagAndRefusedToAScriptWithout() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(#"{"consent": {"0oaidflowsandbox0000": ["profile", "email"]}}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "consent@example.com", password: Self.password)

        let refused = try await signIn(sandbox, "consent@example.com")
        #expect(refused.exitCode == 8, "\(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("--consent") == true, "\(refused.stderr)")
        #expect(refused.error?["message"]?.stringValue?.contains("profile") == true)

        // At a terminal the person is asked, with the scopes shown; "n" is sent to the server, which ends the sign-in.
        let passwordFile = sandbox.home.appendingPathComponent("password.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        let terminal = try InteractiveSession.startInTerminal(
            [
                "login-pkce", "--embedded", "--no-store", "--answer", "identifier=consent@example.com", "--answer",
                "credentials.passcode=@\(passwordFile.path)",
            ], environment: sandbox.environment)
        _ = try await terminal.waitForPrompt { $0.hasSuffix("Allow access? (y/n): ") }
        #expect(terminal.stderrText.contains("profile: View your profile information."), "\(terminal.stderrText)")
        terminal.send("n\n")
        let said = try await terminal.finish()
        #expect(said.exitCode == 8, "\(said)")
        #expect(said.stderr.contains("Operation cancelled by user."))

        let granted = try await signIn(sandbox, "consent@example.com", ["--consent"])
        #expect(granted.exitCode == 0, "\(granted)")

        let remembered = try await signIn(sandbox, "consent@example.com")
        #expect(remembered.exitCode == 0, "asked once per user and app: \(remembered)")
    }

    /// Okta Verify chosen without a method is a push; the number it shows is set apart on stderr, and a second
    /// process answers it with `idflow resolve --approve --number N`.
    @Test func theSignInsNumberChallengeIsAnsweredByResolveNumber() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password"], "optional": ["okta_verify"]}, "signIn": {"factors": 2}, "numberChallenge": true}"#)
        defer { sandbox.stop() }
        let policy = EmbeddedPolicyTests()
        try await policy.enrolledUser(sandbox, "number@example.com")
        let passwordFile = sandbox.home.appendingPathComponent("password.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        let session = try InteractiveSession.start(
            [
                "login-pkce", "--embedded", "--no-store", "--answer", "identifier=number@example.com", "--answer",
                "credentials.passcode=@\(passwordFile.path)", "--answer", "authenticator=okta_verify", "--mfa-timeout", "60",
            ], environment: sandbox.environment)
        let line: String
        do {
            line = try await session.waitForStderrLine(timeout: .seconds(30)) { $0.contains("asks for the number") }
        } catch {
            Issue.record("no number shown: \(session.stderrText)")
            throw error
        }
        let after = try #require(line.range(of: "asks for the number ")).upperBound
        let number = String(line[after...].prefix { $0.isNumber })
        let challenge = try await policy.firstPendingChallenge(sandbox)
        let offered = (challenge["challengeTextItems"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(offered.contains(number), "\(challenge)")

        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve", "--number", number])
        #expect(resolved.exitCode == 0, "\(resolved)")
        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        #expect(login.stderr.contains("Okta Verify by push"), "\(login.stderr)")
    }
}
