import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A person at a terminal, as a pty shows it: a password nobody piped in is asked for at a hidden prompt, and a
/// failure is told in words before the contract's JSON line, which stays last. A script sees neither.
@Suite(.serialized)
struct TerminalPromptTests {
    static let password = "Str0ng-Passw0rd!"

    func sandboxWithUser(_ email: String) async throws -> LiveSandbox {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.createActiveUser(email: email, password: Self.password)
        return sandbox
    }

    @Test func aLoginWithAUsernameAsksForThePasswordAtAHiddenPrompt() async throws {
        let sandbox = try await sandboxWithUser("tty@example.com")
        defer { sandbox.stop() }
        let session = try InteractiveSession.startInTerminal(
            ["login-pkce", "--username", "tty@example.com", "--no-store"], environment: sandbox.environment)
        _ = try await session.waitForPrompt { $0.hasSuffix("Password: ") }
        session.send(Self.password + "\n")
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["id_token_claims"]?["email"] == "tty@example.com")
        #expect(!result.stderr.contains(Self.password), "echo was off: \(result.stderr)")
    }

    @Test func aFailureAtATerminalIsToldInWordsBeforeTheJSONLine() async throws {
        let sandbox = try await sandboxWithUser("tty-wrong@example.com")
        defer { sandbox.stop() }
        let session = try InteractiveSession.startInTerminal(
            ["login-pkce", "--username", "tty-wrong@example.com", "--no-store"], environment: sandbox.environment)
        _ = try await session.waitForPrompt { $0.hasSuffix("Password: ") }
        session.send("not-the-password\n")
        let result = try await session.finish()
        #expect(result.exitCode != 0, "\(result)")
        let error = try #require(result.error, "the JSON error line is still the last line: \(result.stderr)")
        let message = try #require(error["message"]?.stringValue)
        let lines = result.stderr.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("error: \(message)"), "\(result.stderr)")
        if let hint = error["hint"]?.stringValue { #expect(lines.contains("hint: \(hint)"), "\(result.stderr)") }
    }

    @Test func aScriptGetsNoPromptAndTheJSONLineAlone() async throws {
        let sandbox = try await sandboxWithUser("script@example.com")
        defer { sandbox.stop() }
        let missing = try await sandbox.idflow(["login-pkce", "--username", "script@example.com", "--no-store"])
        #expect(missing.exitCode == 64, "\(missing)")
        #expect(missing.error?["message"] == "no password given")
        let wrong = try await sandbox.idflow(
            ["login-pkce", "--username", "script@example.com", "--password-stdin", "--no-store"], stdin: "not-the-password")
        #expect(wrong.exitCode != 0)
        #expect(wrong.error != nil)
        #expect(!wrong.stderr.contains("error: "), "no human line outside a terminal: \(wrong.stderr)")
    }

    @Test func setPasswordAsksTwiceAtATerminal() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let registered = try await sandbox.idflow(["register", "--email", "tty-set@example.com"])
        let userID = try #require(try registered.json()["id"]?.stringValue)
        let activated = try await sandbox.idflow(["activate", "--user", userID])
        let token = try #require(try activated.json()["activationToken"]?.stringValue)
        let tokenFile = sandbox.home.appendingPathComponent("activation-token")
        try Data(token.utf8).write(to: tokenFile)
        let session = try InteractiveSession.startInTerminal(
            ["set-password", "--activation-token-file", tokenFile.path], environment: sandbox.environment)
        let first = try await session.waitForPrompt { $0.hasSuffix("Password: ") }
        session.send(Self.password + "\n")
        _ = try await session.waitForPrompt(after: first) { $0.hasSuffix("Password again: ") }
        session.send(Self.password + "\n")
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["status"] == "SUCCESS")
        #expect(!result.stderr.contains(Self.password))
        let (_, user) = try await sandbox.call("GET", "/api/v1/users/\(userID)")
        #expect(user?["status"] == "ACTIVE")
    }
}
