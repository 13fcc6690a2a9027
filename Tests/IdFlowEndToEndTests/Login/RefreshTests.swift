import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// refresh with rotation, reuse detection, concurrency and crashes, against `idflow sandbox`.
@Suite(.serialized)
struct RefreshTests {
    /// A sandbox with one logged-in user; returns the login output.
    func loggedIn(_ email: String = "rt@example.com", extra: [String] = []) async throws -> (LiveSandbox, JSONValue) {
        try await LiveSandbox.loggedIn(email, extra: extra)
    }

    func stored(_ sandbox: LiveSandbox) throws -> JSONValue { try sandbox.storedLogin() }

    @Test func refreshRotatesAndSavesTheNewRefreshToken() async throws {
        let (sandbox, login) = try await loggedIn()
        let refreshed = try await sandbox.idflow(["refresh"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        let output = try refreshed.json()
        let newRefresh = try #require(output["refresh_token"]?.stringValue)
        #expect(newRefresh != login["refresh_token"]?.stringValue, "the sandbox rotates refresh tokens")
        #expect(output["access_token"] != login["access_token"])
        #expect(output["expires_at"]?.stringValue != nil)
        #expect(output["id_token_claims"]?["sub"] == login["id_token_claims"]?["sub"])
        #expect(try stored(sandbox)["tokens"]?["refresh_token"] == .string(newRefresh))
        let mode =
            (try FileManager.default.attributesOfItem(
                atPath: sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(mode == 0o600)
        // And again, from the rotated one.
        #expect(try await sandbox.idflow(["refresh"]).exitCode == 0)
    }

    @Test func theOldTokenStillWorksInsideTheGracePeriod() async throws {
        let (sandbox, login) = try await loggedIn()
        let old = try #require(login["refresh_token"]?.stringValue)
        #expect(try await sandbox.idflow(["refresh"]).exitCode == 0)
        let reuse = try await sandbox.idflow(["refresh", "--refresh-token-stdin"], stdin: old)
        #expect(reuse.exitCode == 0, "\(reuse)")
    }

    @Test func reuseAfterTheGracePeriodRevokesTheFamilyAndLeavesTheStoreAlone() async throws {
        let (sandbox, login) = try await loggedIn()
        let old = try #require(login["refresh_token"]?.stringValue)
        #expect(try await sandbox.idflow(["refresh"]).exitCode == 0)
        let before = try stored(sandbox)
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(31)])
        let reuse = try await sandbox.idflow(["refresh", "--refresh-token-stdin"], stdin: old)
        #expect(reuse.exitCode == 4, "\(reuse)")
        #expect(reuse.error?["errorCode"] == "invalid_grant")
        // The whole family is gone: the newest token, held in the store, fails too, and is not deleted.
        let next = try await sandbox.idflow(["refresh"])
        #expect(next.exitCode == 4, "\(next)")
        #expect(next.error?["hint"]?.stringValue?.contains("login-pkce") == true)
        #expect(try stored(sandbox) == before, "a failed refresh leaves the store untouched")
        let introspected = try await sandbox.idflow(["token", "introspect"])
        #expect(try introspected.json()["active"] == false, "access tokens of the family are revoked too")
    }

    @Test func tenConcurrentRefreshesAllSucceedWithOneValidChain() async throws {
        let (sandbox, _) = try await loggedIn()
        let results = try await withThrowingTaskGroup(of: IdFlowBinary.Result.self) { group in
            for _ in 0..<10 { group.addTask { try await sandbox.idflow(["refresh"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results { #expect(result.exitCode == 0, "\(result)") }
        let accessTokens = Set(try results.map { try $0.json()["access_token"]?.stringValue ?? "" })
        #expect(accessTokens.count == 10, "each run used the token rotated by the one before it")
        // The stored token is the head of the chain: it refreshes, even after the grace period.
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(31)])
        let after = try await sandbox.idflow(["refresh"])
        #expect(after.exitCode == 0, "\(after)")
    }

    /// idflow is killed while the token request is in flight: the store still holds the previous, valid
    /// tokens, no temporary file is left, the lock is free, and the next refresh works.
    @Test func aCrashBetweenRequestAndWriteLeavesTheStoreValid() async throws {
        let (sandbox, _) = try await loggedIn()
        let before = try stored(sandbox)
        // Held until released, so the kill lands while the request is in flight however slow the machine.
        let hold = try await sandbox.holdNextRequest(to: "/oauth2/default/v1/token")
        let session = try InteractiveSession.start(["refresh", "--verbose"], environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("> POST") && $0.contains("/v1/token") }
        try await session.kill()
        try await sandbox.release(hold)
        #expect(try stored(sandbox) == before)
        let directory = sandbox.stateDirectory.appendingPathComponent("profiles/default").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.hasSuffix(".tmp") })
        let next = try await sandbox.idflow(["refresh"])
        #expect(next.exitCode == 0, "\(next)")
    }

    @Test func withNothingStoredRefreshSaysToLogIn() async throws {
        let sandbox = try await LiveSandbox.start()
        let result = try await sandbox.idflow(["refresh"])
        #expect(result.exitCode == 12, "\(result)")
        #expect(result.error?["hint"]?.stringValue?.contains("login-pkce") == true)
    }

    @Test func anIdleRefreshTokenExpires() async throws {
        let (sandbox, _) = try await loggedIn()
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(8 * 86400)])
        let result = try await sandbox.idflow(["refresh"])
        #expect(result.exitCode == 4, "\(result)")
    }

    @Test func profilesKeepSeparateStores() async throws {
        let (sandbox, _) = try await loggedIn()
        let config = sandbox.home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "profiles:\n  other:\n    scope: openid\n".write(
            to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let other = try await sandbox.idflow(["refresh", "--profile", "other"])
        #expect(other.exitCode == 12, "\(other)")
        #expect(try await sandbox.idflow(["refresh"]).exitCode == 0)
    }

    @Test func tokenHelpersWorkOnTheStoredLogin() async throws {
        let (sandbox, login) = try await loggedIn()
        let inspected = try await sandbox.idflow(["token", "inspect", "--type", "id"])
        #expect(inspected.exitCode == 0, "\(inspected)")
        let inspection = try inspected.json()
        #expect(inspection["signatureVerified"] == false)
        #expect(inspection["claims"]?["sub"] == login["id_token_claims"]?["sub"])
        #expect(inspection["expired"] == false)
        #expect(inspection["header"]?["alg"] == "RS256")
        // Seconds beside the text: an ID token just issued lives an hour.
        let seconds = try #require(inspection["expiresInSeconds"]?.intValue)
        #expect((3500...3600).contains(seconds), "\(seconds)")

        // The refresh token is opaque, as Okta's: described, not a decoding failure.
        let refresh = try await sandbox.idflow(["token", "inspect", "--type", "refresh"])
        #expect(refresh.exitCode == 0, "\(refresh)")
        #expect(try refresh.json()["format"] == "opaque")
        #expect(try refresh.json()["length"]?.intValue == login["refresh_token"]?.stringValue?.count)
        #expect(try refresh.json()["note"]?.stringValue?.contains("token introspect --type refresh") == true)

        let verified = try await sandbox.idflow(["token", "verify", "--audience", "api://default"])
        #expect(verified.exitCode == 0, "\(verified)")
        #expect(try verified.json()["valid"] == true)
        // One vocabulary: verify names what it checked as inspect names what it did not, so one jq filter reads both.
        let verification = try verified.json()
        #expect(verification["signatureVerified"] == true)
        let inspectedAccess = try await sandbox.idflow(["token", "inspect", "--offline"]).json()
        #expect(inspectedAccess["signatureVerified"] == false)
        for key in ["format", "expiresAt", "expired", "issuedAt", "claims", "header"] {
            #expect(verification[key] != nil && verification[key] == inspectedAccess[key], "\(key)")
        }

        let access = try #require(login["access_token"]?.stringValue)
        let parts = access.split(separator: ".")
        let forged = "\(parts[0]).\(parts[1])x.\(parts[2])"
        let bad = try await sandbox.idflow(["token", "verify", "-"], stdin: forged)
        #expect(bad.exitCode == 13, "\(bad)")

        let revoked = try await sandbox.idflow(["token", "revoke", "--type", "access"])
        #expect(revoked.exitCode == 0, "\(revoked)")
        #expect(try await sandbox.idflow(["token", "introspect"]).json()["active"] == false)
        let userinfo = try await sandbox.idflow(["userinfo"])
        #expect(userinfo.exitCode == 4, "\(userinfo)")
    }

    @Test func logoutRevokesAndClears() async throws {
        let (sandbox, login) = try await loggedIn()
        let out = try await sandbox.idflow(["logout"])
        #expect(out.exitCode == 0, "\(out)")
        #expect(try out.json()["cleared"] == true)
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path))
        let reuse = try await sandbox.idflow(["refresh", "--refresh-token-stdin"], stdin: login["refresh_token"]?.stringValue ?? "")
        #expect(reuse.exitCode == 4, "the refresh token was revoked: \(reuse)")

        // Logging out again is not an error: there is nothing left, which is what was asked for.
        let again = try await sandbox.idflow(["logout"])
        #expect(again.exitCode == 0, "\(again)")
        #expect(try again.json()["cleared"] == false)
        #expect(try again.json()["revoked"] == [])
    }
}

struct DemoTests {
    @Test func theDemoRunsEveryStepAndLeavesNothingBehind() async throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-demo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-demo-home-\(UUID().uuidString)")
        // HOME is separate: Foundation's URLSession creates empty cache folders there on Linux, which are not idflow's state.
        let result = try await IdFlowBinary.run(["demo"], environment: ["HOME": home.path, "TMPDIR": tmp.path])
        #expect(result.exitCode == 0, "\(result)")
        let steps = try result.stdout.split(separator: "\n").map { try JSONValue(data: Data($0.utf8)) }
        #expect(
            steps.map { $0["step"]?.stringValue ?? "" } == [
                "register", "activate", "set-password", "login-pkce", "refresh", "api", "login-embedded", "enroll", "push-sign-in",
                "challenges",
                "resolve",
                "login-direct",
                "login-totp",
                "login-passkey",
                "register-idp",
            ])
        #expect(steps.allSatisfy { $0["ok"] == true })
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("✔") }.count == 15)
        // The passkey the TOTP sign-in enrolled at the promotion signed in alone, and the run left no key behind.
        let passkey = try #require(steps.first { $0["step"] == "login-passkey" })
        #expect(passkey["result"]?["id_token_claims"]?["sub"] == steps.first?["result"]?["id"], "\(passkey)")
        // Direct Authentication's push carried a number, which this machine's authenticator picked to approve it.
        let direct = try #require(steps.first { $0["step"] == "login-direct" })
        #expect(direct["result"]?["binding"]?["method"] == "transfer", "\(direct)")
        #expect(direct["result"]?["binding"]?["number"]?.stringValue?.isEmpty == false, "\(direct)")
        #expect(direct["result"]?["access_token"]?.stringValue?.isEmpty == false, "\(direct)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty, "the demo's state dir is removed")
        #expect(
            !FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/state/idflow").path),
            "nothing in the user's state dir")
    }
}
