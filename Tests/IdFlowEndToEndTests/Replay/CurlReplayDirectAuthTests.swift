import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Direct Authentication's script: one password grant at the token endpoint, the password a declared variable,
/// replayed against the sandbox that answered the run to new tokens for the same user.
extension CurlReplayTests {
    @Test func loginDirectWithAPasswordReplaysToNewTokens() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "direct-replay@example.com", password: Self.password)
        let file = curlFile(sandbox, "login-direct")
        let login = try await sandbox.idflow(
            ["login-direct", "--username", "direct-replay@example.com", "--password-stdin", "--curl-file", file.path],
            stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        let accessToken = try #require(try login.json()["access_token"]?.stringValue, "\(login)")
        let text = try script(file, withoutAny: [Self.password, accessToken])
        #expect(declared(text) == ["PASSWORD"], "\(text)")
        #expect(text.contains("grant_type=password"), "\(text)")

        let replayed = try await replay(text, in: sandbox, exporting: ["PASSWORD": Self.password])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.statuses.last == 200, "\(replayed)")
        let tokens = try #require(replayed.answers[replayed.statuses.count], "\(replayed)")
        let replayedToken = try #require(tokens["access_token"]?.stringValue, "\(replayed)")
        #expect(replayedToken != accessToken, "new tokens, for a new sign-in")
        let verified = try await sandbox.idflow(["token", "verify", "-"], stdin: replayedToken)
        let user = try #require(try login.json()["id_token_claims"]?["sub"], "\(login)")
        #expect(verified.exitCode == 0, "\(verified)")
        #expect(try verified.json()["claims"]?["uid"] == user, "the same user: \(verified)")

        let wrong = try await replay(text, in: sandbox, exporting: ["PASSWORD": "not-the-password"])
        #expect(wrong.statuses.last == 400, "\(wrong)")
        #expect(wrong.answers[wrong.statuses.count]?["error"] == "invalid_grant", "\(wrong)")
    }
}
