import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-pkce --embedded --resume TX`: a script that stopped for a missing answer (exit 3) continues the
/// same transaction later, with the PKCE verifier and nonce of the first run.
struct EmbeddedResumeCommandTests {
    let configuration = EmbeddedLoginCommandTests().configuration

    /// The recorded sign-in, where introspect tells where the transaction stands: the password challenge
    /// once the identifier has been sent.
    static func identityEngine() -> RoutedTransport {
        let base = RecordedIdentityEngine.transport()
        let identified = Locked(false)
        return RoutedTransport { request in
            switch request.route {
            case "POST /idp/idx/introspect" where identified.withLock { $0 }:
                return RecordedIdentityEngine.reply("03-challenge-authenticator-password.json")
            case "POST /idp/idx/identify":
                identified.withLock { $0 = true }
                return base.answer(request)
            default: return base.answer(request)
            }
        }
    }

    /// A run that stops at the password (exit 3); returns the transaction it printed and where it is kept.
    func stopAtThePassword(
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (RoutedTransport, [String: String], String, URL) {
        let environment = CLI.isolatedEnvironment()
        let server = Self.identityEngine()
        let stopped = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration, transport: server,
            environment: environment)
        #expect(stopped.exitCode == 3, sourceLocation: sourceLocation)
        let transaction = try #require(stopped.json?["transaction"]?.stringValue, sourceLocation: sourceLocation)
        #expect(stopped.error?["hint"]?.stringValue?.contains("--resume \(transaction)") == true, sourceLocation: sourceLocation)
        let kept = URL(fileURLWithPath: environment["IDFLOW_STATE_DIR"]!).appendingPathComponent("idx/\(transaction).json")
        return (server, environment, transaction, kept)
    }

    @Test func aStoppedSignInIsKeptPrivatelyAndResumedWithTheMissingAnswer() async throws {
        let (server, environment, transaction, kept) = try await stopAtThePassword()
        let attributes = try FileManager.default.attributesOfItem(atPath: kept.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOf: kept, encoding: .utf8)
        #expect(text.contains("BEhBiG3udfRv8l2D6Orym_gfhqVcJfaZ1nMeJuFhKWE"), "the interaction handle is kept")

        let resumed = await CLI.run(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-"] + configuration,
            transport: server, stdin: "s3cret", environment: environment)
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.json?["access_token"] == "at1")
        #expect(server.requests.filter { $0.route.hasSuffix("/interact") }.count == 1, "the resumed run starts nothing new")
        let interact = try #require(server.requests.first { $0.route.hasSuffix("/interact") })
        let verifier = try #require(server.requests.last?.formBody["code_verifier"])
        #expect(try PKCEPair(verifier: verifier).challenge == interact.formBody["code_challenge"])
        #expect(!FileManager.default.fileExists(atPath: kept.path), "removed once signed in")

        let again = await CLI.run(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=s3cret"] + configuration,
            transport: server, environment: environment)
        #expect(again.exitCode == 5)
    }

    /// A wrong answer the server lets the person correct (the error on the form's field) leaves the server's
    /// transaction alive, so idflow keeps it too, and says how to resume it (issue 37 item 9).
    @Test func aRefusedAnswerOnResumeKeepsTheTransactionForAnotherTry() async throws {
        let (server, environment, transaction, kept) = try await stopAtThePassword()
        let wrong = await CLI.run(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=nope"] + configuration,
            transport: server, environment: environment)
        #expect(wrong.exitCode == 4)
        #expect(FileManager.default.fileExists(atPath: kept.path))
        #expect(wrong.stderr.contains("--resume '\(transaction)'"), "\(wrong.stderr)")
    }
}
