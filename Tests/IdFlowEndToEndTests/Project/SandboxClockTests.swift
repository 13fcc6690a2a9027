import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The sandbox clock as a runbook rehearsing expiry uses it: moved ahead, logins fail (their tokens are issued in
/// the future for a client on real time); moved back, they work again, with no restart.
@Suite struct SandboxClockTests {
    @Test func aClockMovedAheadAndResetLetsLoginsWorkAgain() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let password = "Str0ng-Passw0rd!"
        _ = try await sandbox.createActiveUser(email: "clock@example.com", password: password)
        func login() async throws -> IdFlowBinary.Result {
            try await sandbox.idflow(
                ["login-pkce", "--username", "clock@example.com", "--password-stdin", "--no-store"], stdin: password)
        }

        let (ahead, _) = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 7200])
        #expect(ahead == 200)
        let failing = try await login()
        #expect(failing.exitCode == 13, "an ID token issued two hours ahead: \(failing)")

        let (tooFar, refused) = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": -7300])
        #expect(tooFar == 400)
        #expect(refused?["errorCode"] == "E0000001")

        let (back, clock) = try await sandbox.call("POST", "/sandbox/clock", json: ["reset": true])
        #expect(back == 200)
        #expect(clock?["offsetSeconds"]?.intValue == 0)
        let working = try await login()
        #expect(working.exitCode == 0, "\(working)")
        #expect(try working.json()["id_token_claims"]?["preferred_username"] == "clock@example.com")

        // Going back by a negative advance works the same way.
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 7200])
        let (undone, _) = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": -7200])
        #expect(undone == 200)
        #expect(try await login().exitCode == 0)
    }
}
