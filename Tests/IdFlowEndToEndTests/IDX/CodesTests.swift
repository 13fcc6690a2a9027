import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The codes a person types that no authenticator app of theirs shows, end to end: a Temporary Access Code an admin
/// created through the management API (`POST /api/v1/users/{id}/authenticator-enrollments/tac`) and handed over, and a
/// custom OTP token's code (the sandbox's outbox); and the Identity Engine's throttle on sending codes (HTTP 429
/// "Too many requests"), which the built `idflow` waits out when the wait is short and names when it gives up.
@Suite(.serialized)
struct CodesTests {
    static let password = EmbeddedPolicyTests.password

    /// Password and e-mail required, two factors: the TAC stands in for the e-mailed code.
    static let twoFactors = #"{"enroll": {"required": ["password", "email"]}, "signIn": {"factors": 2}}"#

    /// A sign-in that chooses the TAC and reads the password from standard input.
    static func signIn(_ login: String) -> [String] {
        [
            "login-pkce", "--embedded", "--answer", "identifier=\(login)", "--answer", "credentials.passcode=@-", "--answer",
            "authenticator=tac",
        ]
    }

    /// The admin's call, as Okta's TAC guide makes it; returns the code, which only this answer ever shows.
    static func createTAC(_ sandbox: LiveSandbox, userId: String, ttl: Int, multiUse: Bool) async throws -> String {
        let (status, body) = try await sandbox.call(
            "POST", "/api/v1/users/\(userId)/authenticator-enrollments/tac",
            json: [
                "authenticatorId": "autidflowtac00000000", "authenticatorType": "tac",
                "config": ["ttl": .number(Double(ttl)), "multiUse": .bool(multiUse)],
            ])
        #expect(status == 200, "\(String(describing: body))")
        return try #require(body?["profile"]?["tac"]?.stringValue)
    }

    /// The code in a file only its owner can read, as a help desk's note would be kept.
    static func codeFile(_ sandbox: LiveSandbox, _ code: String, name: String = "tac.txt") throws -> URL {
        let file = sandbox.home.appendingPathComponent(name)
        try (code + "\n").write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    /// Two sign-ins wait at the TAC (a script without the code stops, exit 3, with the pending form); the first takes
    /// the single-use code from a file, the second, given the same code, is refused as Okta refuses it.
    @Test func aSingleUseTACSignsInOnceAndIsRefusedAfter() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(Self.twoFactors)
        defer { sandbox.stop() }
        let (userId, _) = try await sandbox.createActiveUser(email: "ada@example.com", password: Self.password)
        let code = try await Self.createTAC(sandbox, userId: userId, ttl: 480, multiUse: false)
        let file = try Self.codeFile(sandbox, code)

        let first = try await sandbox.idflow(Self.signIn("ada@example.com"), stdin: Self.password)
        #expect(first.exitCode == 3, "no code given: the script stops at the TAC: \(first)")
        let pending = try first.json()
        #expect(pending["remediation"] == "challenge-authenticator")
        #expect(pending["fields"]?.arrayValue?.first?["name"] == "credentials.passcode")
        #expect(pending["fields"]?.arrayValue?.first?["secret"] == .bool(true), "a TAC is typed hidden")
        let firstTransaction = try #require(pending["transaction"]?.stringValue)
        let second = try await sandbox.idflow(Self.signIn("ada@example.com"), stdin: Self.password)
        let secondTransaction = try #require(try second.json()["transaction"]?.stringValue)

        let signedIn = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", firstTransaction, "--answer", "credentials.passcode=@\(file.path)", "--verbose"])
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["id_token_claims"]?["sub"]?.stringValue == userId)
        #expect(!signedIn.stderr.contains(code) && !signedIn.stdout.contains(code), "the TAC reached an output")

        let reused = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", secondTransaction, "--answer", "credentials.passcode=@\(file.path)"])
        #expect(reused.exitCode == 4, "a used single-use TAC is refused: \(reused)")
        #expect(reused.error?["message"] == "Invalid code. Try again.", "\(reused.stderr)")
        #expect(reused.stdout.isEmpty)
    }

    /// At a terminal (a pty) the TAC is asked for after the password, and what is typed is not echoed.
    @Test func atATerminalTheTACIsTypedHidden() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(Self.twoFactors)
        defer { sandbox.stop() }
        let (userId, _) = try await sandbox.createActiveUser(email: "desk@example.com", password: Self.password)
        let code = try await Self.createTAC(sandbox, userId: userId, ttl: 60, multiUse: false)
        let session = try InteractiveSession.startInTerminal(
            ["login-pkce", "--embedded", "--answer", "identifier=desk@example.com", "--answer", "authenticator=tac"],
            environment: sandbox.environment)
        do {
            let seen = try await session.waitForPrompt { $0.hasSuffix("Password (required, hidden): ") }
            session.send(Self.password + "\n")
            // The TAC's form, or back to the choice of authenticator: the TAC's is the default.
            let offered = try await session.waitForPrompt(after: seen) { $0.hasSuffix("(Enter: 1): ") }
            #expect(session.stderrText.contains("1) challenge-authenticator (Temporary Access Code)"))
            session.send("\n")
            _ = try await session.waitForPrompt(after: offered) { $0.contains("Enter code") && $0.hasSuffix("hidden): ") }
        } catch {
            Issue.record("no TAC prompt; the terminal showed:\n\(session.stderrText)")
            throw error
        }
        session.send(code + "\n")
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["id_token_claims"]?["sub"]?.stringValue == userId)
        #expect(!result.stderr.contains(code), "the TAC was echoed")
    }

    /// A multi-use TAC in one run (the code scoped to it, `tac:credentials.passcode=@FILE`, beside the password), again,
    /// then refused once the sandbox clock has passed its expiry.
    @Test func aMultiUseTACWorksUntilItExpires() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(Self.twoFactors)
        defer { sandbox.stop() }
        let (userId, _) = try await sandbox.createActiveUser(email: "grace@example.com", password: Self.password)
        let code = try await Self.createTAC(sandbox, userId: userId, ttl: 10, multiUse: true)
        let file = try Self.codeFile(sandbox, code)
        for _ in 0..<2 {
            let signedIn = try await sandbox.idflow(
                Self.signIn("grace@example.com") + ["--answer", "tac:credentials.passcode=@\(file.path)"], stdin: Self.password)
            #expect(signedIn.exitCode == 0, "\(signedIn)")
        }

        // A minute before its expiry the code is still offered; the answer comes two minutes later, after it (the
        // sign-in, younger, is still alive).
        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(10 * 60 - 60)])
        let waiting = try await sandbox.idflow(Self.signIn("grace@example.com"), stdin: Self.password)
        #expect(waiting.exitCode == 3, "\(waiting)")
        let transaction = try #require(try waiting.json()["transaction"]?.stringValue)
        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(120)])
        let expired = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@\(file.path)"])
        #expect(expired.exitCode == 4, "an expired TAC is refused: \(expired)")
        #expect(expired.error?["message"] == "Invalid code. Try again.", "\(expired.stderr)")
    }

    /// Custom OTP: the code read from the outbox; a resend at once is throttled (429 "Too many requests"): with no
    /// retries the user is told so (exit 7), with the default ones idflow waits the seconds the sandbox names and the
    /// resend goes through; the new code signs in.
    @Test func aCustomOTPCodeFromTheOutboxAndItsThrottledResend() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(
            #"{"enroll": {"required": ["password", "custom_otp"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let (userId, _) = try await sandbox.createActiveUser(email: "otp@example.com", password: Self.password)
        let start = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--answer", "identifier=otp@example.com", "--answer", "credentials.passcode=@-"],
            stdin: Self.password)
        #expect(start.exitCode == 3, "\(start)")
        let transaction = try #require(try start.json()["transaction"]?.stringValue)
        let first = try await AuthenticatorTests.sentCode(sandbox, to: "otp@example.com")
        #expect(first.channel == "custom_otp")

        let throttled = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--remediation", "resend", "--max-retries", "0"])
        #expect(throttled.exitCode == 7, "\(throttled)")
        #expect(throttled.stderr.contains("429"), "\(throttled.stderr)")
        #expect(try await AuthenticatorTests.sentCode(sandbox, to: "otp@example.com").code == first.code, "nothing was sent")

        // Two seconds before another code may go: the 429's X-Rate-Limit-Reset says so, and idflow waits for it.
        _ = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(28)])
        let resent = try await sandbox.idflow([
            "login-pkce", "--embedded", "--resume", transaction, "--remediation", "resend", "--max-retries", "2",
        ])
        #expect(resent.exitCode == 3, "\(resent)")
        let second = try await AuthenticatorTests.sentCode(sandbox, to: "otp@example.com")
        #expect(second.channel == "custom_otp")

        let signedIn = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-"], stdin: second.code)
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["id_token_claims"]?["sub"]?.stringValue == userId)
    }
}
