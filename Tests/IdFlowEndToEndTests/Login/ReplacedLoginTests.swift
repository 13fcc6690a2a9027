import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A profile keeps one login: a login of another user replaces the stored one with a warning that says how to
/// keep both; logging in again as the same user, or with --no-store, says nothing.
@Suite struct ReplacedLoginTests {
    @Test func aLoginOfAnotherUserWarnsThatItReplacesTheStoredOne() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (_, first) = try await sandbox.createActiveUser(email: "first@example.com")
        let (_, second) = try await sandbox.createActiveUser(email: "second@example.com")

        let a = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: first)
        #expect(a.exitCode == 0, "\(a)")
        #expect(!a.stderr.contains("warning"), "\(a)")
        let firstSubject = try #require(try a.json()["id_token_claims"]?["sub"]?.stringValue)

        let unsaved = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--no-store"], stdin: second)
        #expect(unsaved.exitCode == 0, "\(unsaved)")
        #expect(!unsaved.stderr.contains("replaces"), "--no-store replaces nothing: \(unsaved)")

        let b = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: try await session(sandbox, "second@example.com"))
        #expect(b.exitCode == 0, "\(b)")
        let secondSubject = try #require(try b.json()["id_token_claims"]?["sub"]?.stringValue)
        let warning = b.stderr.split(separator: "\n").first { $0.hasPrefix("warning: ") }.map(String.init) ?? ""
        #expect(warning.contains("replaces the stored login of \(firstSubject)"), "\(b)")
        #expect(warning.contains("(\(secondSubject))"), "\(b)")
        #expect(warning.contains("--profile NAME") && warning.contains("--no-store"), "\(b)")

        let again = try await sandbox.idflow(
            ["login-pkce", "--session-token-stdin"], stdin: try await session(sandbox, "second@example.com"))
        #expect(again.exitCode == 0, "\(again)")
        #expect(!again.stderr.contains("replaces"), "the same user again replaces no one else: \(again)")
    }

    /// A fresh session token for an existing user of the sandbox (a session token is good for one login).
    func session(_ sandbox: LiveSandbox, _ email: String) async throws -> String {
        let (status, body) = try await sandbox.call(
            "POST", "/api/v1/authn", json: ["username": .string(email), "password": .string("Str0ng-Passw0rd!")], authorized: false)
        try #require(status == 200, "\(String(describing: body))")
        return try #require(body?["sessionToken"]?.stringValue)
    }
}
