import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

/// A password that expires (by `passwordPolicy.age.maxAgeDays` on the sandbox clock, or by an admin) and one about
/// to: PASSWORD_EXPIRED and PASSWORD_WARN, change_password and skip.
@Suite("Authn expired and warned passwords")
struct AuthnPasswordExpiryTests {
    static let password = SandboxClient.recoveryPassword
    static let day = 86_400

    static func aging(_ configuration: inout SandboxConfiguration) {
        configuration.passwordPolicy.age = PasswordAgePolicy(maxAgeDays: 30, expireWarnDays: 5)
    }

    @Test("after maxAgeDays the password is expired: PASSWORD_EXPIRED, change_password, SUCCESS and a fresh password")
    func expiresWithAge() async throws {
        try await withSandbox(configure: Self.aging) { api in
            let id = try await api.registerActiveUser(email: "old@example.com").userId
            let before = try await api.send(.get, "/api/v1/users/\(id)").object()["passwordChanged"] as? String
            try await api.advanceClock(seconds: 30 * Self.day + 60)
            let expired = try await api.authnSignIn("old@example.com", relayState: "/back/here")
            #expect(expired.status == .ok)
            let body = try expired.object()
            #expect(body["status"] as? String == "PASSWORD_EXPIRED")
            #expect(body["relayState"] as? String == "/back/here")
            #expect(((body["_links"] as? [String: Any])?["skip"]) == nil, "no skip on an expired password")
            #expect(try await api.status(of: id) == "PASSWORD_EXPIRED")
            let stateToken = try #require(body["stateToken"] as? String)
            #expect(try expired.linkHref("next") == "\(await api.state.orgURL)/api/v1/authn/credentials/change_password")

            let skip = try await api.send(.post, "/api/v1/authn/skip", json: ["stateToken": stateToken], auth: .none)
            #expect(try skip.status == .forbidden && skip.oktaError().code == "E0000079")

            let changed = try await api.follow(
                try expired.linkHref("next"), ["stateToken": stateToken, "oldPassword": Self.password, "newPassword": "Spring-Fresh-2"])
            #expect(changed.authnStatus == "SUCCESS")
            let user = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect(user["status"] as? String == "ACTIVE")
            #expect(user["passwordChanged"] as? String != before, "passwordChanged is the time of the change")
            #expect(try await api.authnSignIn("old@example.com", password: "Spring-Fresh-2").authnStatus == "SUCCESS")
        }
    }

    @Test("inside the warning window: PASSWORD_WARN only when asked, with the days left; skip signs in")
    func warnAndSkip() async throws {
        try await withSandbox(configure: Self.aging) { api in
            _ = try await api.registerActiveUser(email: "warn@example.com")
            try await api.advanceClock(seconds: 24 * Self.day)
            #expect(try await api.authnSignIn("warn@example.com", warn: true).authnStatus == "SUCCESS", "6 days left: no warning")
            try await api.advanceClock(seconds: 2 * Self.day)
            #expect(try await api.authnSignIn("warn@example.com").authnStatus == "SUCCESS", "not asked to warn")
            let warned = try await api.authnSignIn("warn@example.com", warn: true)
            let body = try warned.object()
            #expect(body["status"] as? String == "PASSWORD_WARN")
            let policy = (body["_embedded"] as? [String: Any])?["policy"] as? [String: Any]
            #expect((policy?["expiration"] as? [String: Any])?["passwordExpireDays"] as? Int == 4)
            let stateToken = try #require(body["stateToken"] as? String)
            let skipped = try await api.follow(try warned.linkHref("skip"), ["stateToken": stateToken])
            #expect(skipped.authnStatus == "SUCCESS")
            #expect(try skipped.object()["sessionToken"] is String)
            #expect(try await api.authnSignIn("warn@example.com").authnStatus == "SUCCESS", "the old password still works")
        }
    }

    @Test("from PASSWORD_WARN, change_password sets a new password and the warning is gone")
    func warnAndChange() async throws {
        try await withSandbox(configure: Self.aging) { api in
            _ = try await api.registerActiveUser(email: "change@example.com")
            try await api.advanceClock(seconds: 27 * Self.day)
            let warned = try await api.authnSignIn("change@example.com", warn: true)
            let stateToken = try #require(try warned.object()["stateToken"] as? String)
            let changed = try await api.follow(
                try warned.linkHref("next"), ["stateToken": stateToken, "oldPassword": Self.password, "newPassword": "Summer-Fresh-3"])
            #expect(changed.authnStatus == "SUCCESS")
            #expect(try await api.authnSignIn("change@example.com", password: "Summer-Fresh-3", warn: true).authnStatus == "SUCCESS")
            #expect(try await api.authnSignIn("change@example.com").status == .unauthorized)
        }
    }

    @Test("a wrong old password is E0000014; a weak new one E0000080; then a good one on the same state token")
    func refusalsThenSuccess() async throws {
        try await withSandbox { api in
            let id = try await api.registerActiveUser(email: "retry@example.com").userId
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password")
            let expired = try await api.authnSignIn("retry@example.com")
            let stateToken = try #require(try expired.object()["stateToken"] as? String)
            let href = try expired.linkHref("next")

            let wrongOld = try await api.follow(
                href, ["stateToken": stateToken, "oldPassword": "Not-It-1", "newPassword": "Autumn-Fresh-4"])
            #expect(wrongOld.status == .forbidden)
            #expect(try wrongOld.oktaError().code == "E0000014")
            let weak = try await api.follow(href, ["stateToken": stateToken, "oldPassword": Self.password, "newPassword": "short"])
            #expect(weak.status == .forbidden)
            #expect(try weak.oktaError().code == "E0000080")
            #expect(try await api.status(of: id) == "PASSWORD_EXPIRED", "nothing changed yet")
            let good = try await api.follow(
                href, ["stateToken": stateToken, "oldPassword": Self.password, "newPassword": "Autumn-Fresh-4"])
            #expect(good.authnStatus == "SUCCESS")
            #expect(try await api.status(of: id) == "ACTIVE")
        }
    }

    @Test("change_password outside PASSWORD_EXPIRED/WARN is E0000079")
    func changeInWrongState() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "wrong@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let reply = try await api.send(
                .post, "/api/v1/authn/credentials/change_password",
                json: ["stateToken": stateToken, "oldPassword": "x", "newPassword": "Winter-Fresh-5"], auth: .none)
            #expect(reply.status == .forbidden)
            #expect(try reply.oktaError().code == "E0000079")
        }
    }

    @Test("push MFA comes first, then PASSWORD_EXPIRED")
    func mfaBeforeExpired() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "mfa-expired@example.com")
            let userId = try #require(try await api.send(.get, "/api/v1/users/mfa-expired@example.com").object()["id"] as? String)
            _ = try await api.send(.post, "/api/v1/users/\(userId)/lifecycle/expire_password")
            let (stateToken, waiting) = try await AuthnPushTests.startPush(api, device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try await api.respond(to: challenge, device: device).status == .ok)
            let poll = try #require(AuthnPushTests.link(waiting, "next")?["href"] as? String)
            let after = try await AuthnPushTests.post(api, poll, stateToken: stateToken)
            #expect(after.authnStatus == "PASSWORD_EXPIRED")
            #expect(try after.object()["stateToken"] as? String == stateToken, "the same transaction goes on")
            let changed = try await api.follow(
                try after.linkHref("next"),
                ["stateToken": stateToken, "oldPassword": AuthnPushTests.password, "newPassword": "After-Push-6"])
            #expect(changed.authnStatus == "SUCCESS")
        }
    }
}
