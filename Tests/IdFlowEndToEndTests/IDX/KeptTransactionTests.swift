import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A kept embedded sign-in lives as long as the server's transaction (issue 37 item 9): a wrong e-mailed code
/// leaves it for another try, and only the server ending it (too many wrong codes) removes it.
@Suite(.serialized)
struct KeptTransactionTests {
    func stopForTheCode(_ sandbox: LiveSandbox, _ email: String) async throws -> String {
        let stopped = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--no-store", "--answer", "identifier=\(email)", "--answer", "credentials.passcode=@-"],
            stdin: EmbeddedPolicyTests.password)
        #expect(stopped.exitCode == 3, "\(stopped)")
        return try #require(try stopped.json()["transaction"]?.stringValue)
    }

    func resume(_ sandbox: LiveSandbox, _ transaction: String, code: String) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            ["login-pkce", "--embedded", "--no-store", "--resume", transaction, "--answer", "credentials.passcode=@-"], stdin: code)
    }

    @Test func aWrongEmailedCodeKeepsTheSignInForTheRightOne() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(#"{"authenticators": ["password", "email"]}"#)
        defer { sandbox.stop() }
        let (userID, _) = try await sandbox.createActiveUser(email: "typo@example.com", password: EmbeddedPolicyTests.password)
        let transaction = try await stopForTheCode(sandbox, "typo@example.com")
        let code = try await EmbeddedPolicyTests.emailedCode(sandbox, to: "typo@example.com")
        let wrong = String(code.reversed()) == code ? "000000" : String(code.reversed())

        let refused = try await resume(sandbox, transaction, code: wrong)
        #expect(refused.exitCode == 4, "a wrong code is refused credentials: \(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("--resume '\(transaction)'") == true, "\(refused)")
        #expect(!refused.stderr.contains(wrong), "the code reached a message")

        let finished = try await resume(sandbox, transaction, code: code)
        #expect(finished.exitCode == 0, "the same sign-in takes the right code: \(finished)")
        #expect(try finished.json()["id_token_claims"]?["sub"] == .string(userID))
    }

    /// The sandbox, as Okta, ends the transaction at the fifth wrong code (`maxCodeAttempts`); then nothing is kept.
    @Test func theSignInIsRemovedOnlyWhenTheServerEndsIt() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(#"{"authenticators": ["password", "email"]}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "guess@example.com", password: EmbeddedPolicyTests.password)
        let transaction = try await stopForTheCode(sandbox, "guess@example.com")
        let code = try await EmbeddedPolicyTests.emailedCode(sandbox, to: "guess@example.com")
        let wrong = code == "000000" ? "111111" : "000000"
        let keptFile = sandbox.stateDirectory.appendingPathComponent("idx/\(transaction).json")
        for attempt in 1...4 {
            let refused = try await resume(sandbox, transaction, code: wrong)
            #expect(refused.exitCode == 4, "attempt \(attempt): \(refused)")
            #expect(FileManager.default.fileExists(atPath: keptFile.path), "attempt \(attempt) removed the sign-in")
        }
        let last = try await resume(sandbox, transaction, code: wrong)
        #expect(last.exitCode != 0, "\(last)")
        #expect(last.error?["message"]?.stringValue?.contains("too many failed attempts") == true, "\(last)")
        let gone = try await resume(sandbox, transaction, code: code)
        #expect(gone.exitCode == 5, "the server ended the sign-in, so idflow keeps none: \(gone)")
    }
}
