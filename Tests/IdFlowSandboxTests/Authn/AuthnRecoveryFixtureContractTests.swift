import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The Authn recovery states in the recorded shapes (okta-core.md §F1, §F3): for each fixture, the sandbox's answer
/// to the same request has the same key paths and, for errors, the same code, text and causes.
@Suite("Authn recovery responses match the recorded Okta fixtures")
struct AuthnRecoveryFixtureContractTests {
    static let login = "dade.murphy@example.com"
    static let phone = "+15555550143"
    static let relayState = "/myapp/some/deep/link/i/want/to/return/to"

    static func recover(_ api: SandboxClient, _ path: String, _ body: [String: Any]) async throws -> Reply {
        try await api.send(.post, "/api/v1/authn/recovery/\(path)", json: body, auth: .none)
    }

    /// A user whose password an admin expired, signed in: the PASSWORD_EXPIRED reply.
    static func expiredSignIn(_ api: SandboxClient) async throws -> Reply {
        let id = try await api.registerActiveUser(email: login).userId
        _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password")
        return try await api.authnSignIn(login, relayState: relayState)
    }

    @Test func passwordExpired() async throws {
        try await withSandbox { api in
            let reply = try await Self.expiredSignIn(api)
            try FixtureContract.expectSameKeys(reply, fixture: "authn-password-expired.json")
            #expect(reply.keysAppearInOrder(["stateToken", "expiresAt", "status", "relayState", "_embedded", "_links"]))
            let recorded = try Fixtures.object("okta-core/authn-password-expired.json")
            let policy = { (body: [String: Any]) in
                ((body["_embedded"] as? [String: Any])?["policy"] as? [String: Any])?["complexity"] as? [String: Int]
            }
            #expect(policy(try reply.object()) == policy(recorded))
        }
    }

    @Test func passwordWarn() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.age = PasswordAgePolicy(maxAgeDays: 10, expireWarnDays: 5) }) { api in
            _ = try await api.registerActiveUser(email: Self.login)
            try await api.advanceClock(seconds: 6 * 86_400)
            let reply = try await api.authnSignIn(Self.login, warn: true, relayState: Self.relayState)
            try FixtureContract.expectSameKeys(reply, fixture: "authn-password-warn.json")
            let links = try #require(try reply.object()["_links"] as? [String: Any])
            #expect((links["skip"] as? [String: Any])?["name"] as? String == "skip")
        }
    }

    @Test func lockedOut() async throws {
        try await withSandbox(configure: {
            $0.passwordPolicy.lockout = LockoutPolicy(maxAttempts: 1, showLockoutFailures: true, selfServiceUnlock: true)
        }) { api in
            _ = try await api.registerActiveUser(email: Self.login)
            try await api.failSignIns(Self.login, 1)
            let reply = try await api.authnSignIn(Self.login)
            #expect(reply.status == .ok)
            try FixtureContract.expectSameKeys(reply, fixture: "authn-locked-out.json")
        }
    }

    /// The default policy hides lockout: the locked user's sign-in is the recorded E0000004.
    @Test func lockedOutHidden() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 1 }) { api in
            _ = try await api.registerActiveUser(email: Self.login)
            try await api.failSignIns(Self.login, 1)
            let reply = try await api.authnSignIn(Self.login)
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000004-authentication-failed.json", status: .unauthorized)
        }
    }

    @Test func recoveryChallengeEmail() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: Self.login)
            let reply = try await Self.recover(api, "password", ["username": Self.login, "factorType": "EMAIL"])
            try FixtureContract.expectSameKeys(reply, fixture: "authn-recovery-challenge-email.json")
            let recorded = try Fixtures.object("okta-core/authn-recovery-challenge-email.json")
            #expect(NSDictionary(dictionary: try reply.object()) == NSDictionary(dictionary: recorded), "no token in it: the same body")
        }
    }

    @Test func unlockRecoveryChallengeEmail() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 1 }) { api in
            _ = try await api.registerActiveUser(email: Self.login)
            try await api.failSignIns(Self.login, 1)
            let reply = try await Self.recover(api, "unlock", ["username": Self.login, "factorType": "EMAIL"])
            let recorded = try Fixtures.object("okta-core/authn-unlock-recovery-challenge-email.json")
            #expect(NSDictionary(dictionary: try reply.object()) == NSDictionary(dictionary: recorded))
        }
    }

    @Test func recoveryChallengeSMS() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: Self.login)
            try await api.giveRecoveryFactors(Self.login, phone: Self.phone)
            let reply = try await Self.recover(api, "password", ["username": Self.login, "factorType": "SMS"])
            try FixtureContract.expectSameKeys(reply, fixture: "authn-recovery-challenge-sms.json")
            #expect(try reply.linkHref("next").hasSuffix("/api/v1/authn/recovery/factors/SMS/verify"))
            #expect(try reply.linkHref("resend").hasSuffix("/api/v1/authn/recovery/factors/SMS/resend"))
        }
    }

    /// RECOVERY after the texted code, the security question embedded.
    static func recoveryState(_ api: SandboxClient) async throws -> (stateToken: String, reply: Reply) {
        _ = try await api.registerActiveUser(email: login)
        try await api.giveRecoveryFactors(login, phone: phone, question: ("Who's a major player in the cowboy scene?", "Gene Autry"))
        let challenge = try await recover(api, "password", ["username": login, "factorType": "SMS"])
        let stateToken = try #require(try challenge.object()["stateToken"] as? String)
        let code = try #require(try await api.lastMessage(to: phone)["code"] as? String)
        return (stateToken, try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": code]))
    }

    @Test func recovery() async throws {
        try await withSandbox { api in
            let (_, reply) = try await Self.recoveryState(api)
            try FixtureContract.expectSameKeys(reply, fixture: "authn-recovery.json")
        }
    }

    /// The sandbox adds `recoveryType` (as the activation's PASSWORD_RESET and every other recovery state carry it);
    /// the reference example happens to leave it out. Otherwise the same keys.
    @Test func passwordResetAfterAnswer() async throws {
        try await withSandbox { api in
            let (stateToken, question) = try await Self.recoveryState(api)
            let reply = try await api.follow(try question.linkHref("next"), ["stateToken": stateToken, "answer": "Gene Autry"])
            let recorded = keyPaths(try Fixtures.object("okta-core/authn-password-reset-after-recovery-answer.json"))
            #expect(keyPaths(try reply.object()) == recorded.union(["recoveryType"]))
            #expect(try reply.object()["recoveryType"] as? String == "PASSWORD")
        }
    }

    @Test func successAfterChangePassword() async throws {
        try await withSandbox { api in
            let expired = try await Self.expiredSignIn(api)
            let stateToken = try #require(try expired.object()["stateToken"] as? String)
            let reply = try await api.follow(
                try expired.linkHref("next"),
                ["stateToken": stateToken, "oldPassword": SandboxClient.recoveryPassword, "newPassword": "Hack-The-Planet-1"])
            try FixtureContract.expectSameKeys(reply, fixture: "authn-success-after-change-password.json")
        }
    }

    @Test func successUnlock() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 1 }) { api in
            _ = try await api.registerActiveUser(email: Self.login)
            try await api.failSignIns(Self.login, 1)
            _ = try await Self.recover(api, "unlock", ["username": Self.login, "factorType": "EMAIL"])
            let token = try #require(try await api.lastMessage(to: Self.login)["recoveryToken"] as? String)
            let reply = try await Self.recover(api, "token", ["recoveryToken": token])
            try FixtureContract.expectSameKeys(reply, fixture: "authn-success-unlock.json")
        }
    }

    @Test func errorE0000014() async throws {
        try await withSandbox { api in
            let expired = try await Self.expiredSignIn(api)
            let stateToken = try #require(try expired.object()["stateToken"] as? String)
            let reply = try await api.follow(
                try expired.linkHref("next"), ["stateToken": stateToken, "oldPassword": "Wrong-Old-1", "newPassword": "Hack-The-Planet-1"])
            try FixtureContract.expectRecordedError(
                reply, fixture: "error-E0000014-change-password-wrong-old-password.json", status: .forbidden)
        }
    }

    @Test(arguments: ["change_password", "reset_password"])
    func errorE0000080(call: String) async throws {
        try await withSandbox { api in
            let stateToken: String
            if call == "change_password" {
                stateToken = try #require(try await Self.expiredSignIn(api).object()["stateToken"] as? String)
            } else {
                let id = try #require(try await api.createUser(email: Self.login)["id"] as? String)
                stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            }
            let reply = try await api.send(
                .post, "/api/v1/authn/credentials/\(call)",
                json: ["stateToken": stateToken, "oldPassword": SandboxClient.recoveryPassword, "newPassword": "dade.murphy-1A"],
                auth: .none)
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000080-password-complexity.json", status: .forbidden)
        }
    }

    @Test func errorE0000087() async throws {
        try await withSandbox { api in
            let (stateToken, question) = try await Self.recoveryState(api)
            let reply = try await api.follow(try question.linkHref("next"), ["stateToken": stateToken, "answer": "Roy Rogers"])
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000087-wrong-recovery-answer.json", status: .forbidden)
        }
    }
}
