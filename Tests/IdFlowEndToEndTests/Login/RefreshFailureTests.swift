import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A refresh that fails around the grant never costs the profile its refresh token, against `idflow sandbox`.
@Suite(.serialized)
struct RefreshFailureTests {
    @Test func signingKeysThatFailToLoadCostNothing() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (_, session) = try await sandbox.createActiveUser(email: "keys@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        // Forget the cached keys and make the next key fetch fail, as a flaky network would.
        for file in try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory.appendingPathComponent("cache").path)
        where file.hasPrefix("jwks-") {
            try FileManager.default.removeItem(at: sandbox.stateDirectory.appendingPathComponent("cache/\(file)"))
        }
        try await sandbox.call(
            "POST", "/sandbox/faults", json: ["pathPrefix": "/oauth2/default/v1/keys", "status": 502, "body": "bad gateway", "count": 1])
        let failed = try await sandbox.idflow(["refresh"])
        #expect(failed.exitCode == 7, "\(failed)")

        // Well past the grace period, the stored token still works: the failed run never made the grant.
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(120)])
        let next = try await sandbox.idflow(["refresh"])
        #expect(next.exitCode == 0, "\(next)")
    }
}
