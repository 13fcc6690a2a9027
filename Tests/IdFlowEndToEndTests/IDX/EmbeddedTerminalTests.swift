import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `login-pkce --embedded` with a person at a real terminal (a pty): the sandbox's forms become prompts, a wrong
/// password is asked for again, and Ctrl-C cancels the sign-in.
@Suite(.serialized)
struct EmbeddedTerminalTests {
    static let password = "Str0ng-Passw0rd!"

    @Test func aWrongPasswordIsAskedAgainAndTheRightOneSignsIn() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, _) = try await sandbox.createActiveUser(email: "typist@example.com", password: Self.password)
        let session = try InteractiveSession.startInTerminal(["login-pkce", "--embedded"], environment: sandbox.environment)
        var seen = try await session.waitForPrompt { $0.hasSuffix("(Enter: 1): ") }
        #expect(session.stderrText.contains("1) identify"))
        #expect(session.stderrText.contains("2) select-enroll-profile"))
        session.send("\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("Username (required): ") }
        session.send("typist@example.com\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("[y/N]: ") }
        session.send("\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("Password (required, hidden): ") }
        session.send("not-the-password\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("Password (required, hidden): ") }
        #expect(session.stderrText.contains("error: Authentication failed"))
        session.send(Self.password + "\n")
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["id_token_claims"]?["sub"] == .string(userID))
        #expect(!result.stderr.contains(Self.password) && !result.stderr.contains("not-the-password"), "a password was echoed")
    }

    @Test func controlCAtAPromptCancelsTheSignInAndExits130() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.createActiveUser(email: "quitter@example.com", password: Self.password)
        let session = try InteractiveSession.startInTerminal(
            ["login-pkce", "--embedded", "--answer", "identifier=quitter@example.com"], environment: sandbox.environment)
        _ = try await session.waitForPrompt { $0.hasSuffix("Password (required, hidden): ") }
        session.pressControlC()
        let result = try await session.finish()
        #expect(result.exitCode == 130, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.error?["kind"] == "interrupted")
        #expect(result.stderr.contains("cancelled the sign-in on the server"))
        let kept = sandbox.stateDirectory.appendingPathComponent("idx").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: kept)) ?? []).isEmpty)
    }

    /// SIGTERM at a prompt (the terminal closed by a CI runner, `kill`) ends it as Ctrl-C does: the terminal is put
    /// back, the sign-in cancelled, exit 130 with the error line; it never leaves the process blocked in the read.
    @Test func sigtermAtAPromptCancelsTheSignInAndExits130() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.createActiveUser(email: "stopped@example.com", password: Self.password)
        let session = try InteractiveSession.startInTerminal(
            ["login-pkce", "--embedded", "--answer", "identifier=stopped@example.com"], environment: sandbox.environment)
        _ = try await session.waitForPrompt { $0.hasSuffix("Password (required, hidden): ") }
        kill(Self.idflowProcess(session), SIGTERM)
        let result = try await session.finish(timeout: .seconds(60))
        #expect(result.exitCode == 130, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.error?["kind"] == "interrupted")
        #expect(result.stderr.contains("cancelled the sign-in on the server"))
    }

    /// The idflow process of a terminal session: `setsid` runs it as a child when it cannot make itself a session
    /// leader, so the session's own process may be `setsid` waiting for it.
    static func idflowProcess(_ session: InteractiveSession) -> Int32 {
        let pid = session.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) } ?? pid
    }
}
