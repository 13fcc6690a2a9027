import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `login-direct` as ops use it, the built idflow against `idflow sandbox`: a code from a kept seed (never one
/// twice), and a push with a number challenge answered from a second idflow process that enrolled this machine.
@Suite(.serialized)
struct LoginDirectEndToEndTests {
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

        var challenge: JSONValue?
        for _ in 0..<50 where challenge == nil {
            challenge = try? await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.first
            if challenge == nil { try await Task.sleep(for: .milliseconds(200)) }
        }
        let offered = (try #require(challenge)["challengeTextItems"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(offered.contains(number), "\(String(describing: challenge))")
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve", "--number", number])
        #expect(resolved.exitCode == 0, "\(resolved)")

        let login = try await session.finish()
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["binding"] == ["method": "transfer", "number": .string(number)])
        #expect(try login.json()["id_token_claims"]?["sub"] != nil)
    }
}
