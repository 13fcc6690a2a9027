import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

/// The users API's recovery calls (okta-core.md §G) as an admin's runbook uses them: each puts the user where a
/// sign-in notices it, and the link or password it hands out works exactly once.
@Suite("Users API: expire, reset, forgot, unlock, reset factors")
struct PasswordLifecycleTests {
    static let password = SandboxClient.recoveryPassword

    static func activeUser(_ api: SandboxClient, _ email: String) async throws -> String {
        try await api.registerActiveUser(email: email).userId
    }

    @Test("expire_password: PASSWORD_EXPIRED at once, and the old password now leads to PASSWORD_EXPIRED in Authn")
    func expirePassword() async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "exp@example.com")
            let before = try await api.send(.get, "/api/v1/users/\(id)").object()
            try await api.advanceClock(seconds: 60)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password")
            #expect(reply.status == .ok)
            let user = try reply.object()
            #expect(user["status"] as? String == "PASSWORD_EXPIRED")
            #expect(user["statusChanged"] as? String != before["statusChanged"] as? String)
            #expect(user["passwordChanged"] as? String == before["passwordChanged"] as? String, "the password itself is unchanged")
            #expect(try await api.status(of: id) == "PASSWORD_EXPIRED")
            #expect(try await api.authnSignIn("exp@example.com").authnStatus == "PASSWORD_EXPIRED")
            #expect(try await api.authnSignIn("exp@example.com", password: "Other-Pass-1").status == .unauthorized)
        }
    }

    @Test(
        "a temporary password replaces the old one, already expired",
        arguments: ["lifecycle/expire_password_with_temp_password", "lifecycle/expire_password?tempPassword=true"])
    func temporaryPassword(path: String) async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "temp@example.com")
            let reply = try await api.send(.post, "/api/v1/users/\(id)/\(path)")
            #expect(reply.status == .ok)
            let temporary = try #require(try reply.object()["tempPassword"] as? String)
            #expect(temporary.count == 12)
            #expect(try await api.status(of: id) == "PASSWORD_EXPIRED")
            #expect(try await api.authnSignIn("temp@example.com").status == .unauthorized, "the old password is gone")
            let expired = try await api.authnSignIn("temp@example.com", password: temporary)
            #expect(expired.authnStatus == "PASSWORD_EXPIRED")
            let stateToken = try #require(try expired.object()["stateToken"] as? String)
            let changed = try await api.follow(
                try expired.linkHref("next"), ["stateToken": stateToken, "oldPassword": temporary, "newPassword": "Brand-New-Pass-9"])
            #expect(changed.authnStatus == "SUCCESS")
            #expect(try await api.status(of: id) == "ACTIVE")
        }
    }

    @Test("reset_password?sendEmail=false: RECOVERY, no password signs in, the URL's token resets it once")
    func resetPasswordURL() async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "reset@example.com")
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_password?sendEmail=false")
            #expect(reply.status == .ok)
            let url = try #require(try reply.object()["resetPasswordUrl"] as? String)
            let prefix = "\(await api.state.orgURL)/reset_password/"
            #expect(url.hasPrefix(prefix + "drp"))
            let token = String(url.dropFirst(prefix.count))
            #expect(token.count == 20)
            #expect(try await api.status(of: id) == "RECOVERY")
            #expect(try await api.authnSignIn("reset@example.com").status == .unauthorized)

            let redeemed = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            #expect(redeemed.authnStatus == "PASSWORD_RESET")
            let body = try redeemed.object()
            #expect(body["recoveryType"] as? String == "PASSWORD")
            let stateToken = try #require(body["stateToken"] as? String)
            let done = try await api.follow(try redeemed.linkHref("next"), ["stateToken": stateToken, "newPassword": "Blue-Harbour-42"])
            #expect(done.authnStatus == "SUCCESS")
            #expect(try done.object()["sessionToken"] is String)
            #expect(try await api.status(of: id) == "ACTIVE")
            #expect(try await api.authnSignIn("reset@example.com", password: "Blue-Harbour-42").authnStatus == "SUCCESS")
            #expect(try await api.authnSignIn("reset@example.com").status == .unauthorized, "the old password is gone")
            let again = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            #expect(again.status == .unauthorized, "the token is single-use")
        }
    }

    @Test("reset_password with the e-mail: {} and the link in the outbox; a second reset kills the first link")
    func resetPasswordEmail() async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "mail@example.com")
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_password")
            #expect(reply.status == .ok && reply.text == "{}")
            let first = try await api.lastMessage(to: "mail@example.com")
            let firstToken = try #require(first["recoveryToken"] as? String)
            #expect(first["link"] as? String == "\(await api.state.orgURL)/reset_password/\(firstToken)")
            #expect(try await api.status(of: id) == "RECOVERY")

            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_password?sendEmail=true")
            let secondToken = try #require(try await api.lastMessage(to: "mail@example.com")["recoveryToken"] as? String)
            #expect(try await api.send(.post, "/api/v1/authn", json: ["token": firstToken], auth: .none).status == .unauthorized)
            #expect(try await api.send(.post, "/api/v1/authn", json: ["token": secondToken], auth: .none).authnStatus == "PASSWORD_RESET")
        }
    }

    @Test("forgot_password: a /signin/reset-password/dfp… link; the user stays ACTIVE until it is used")
    func forgotPassword() async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "forgot@example.com")
            let reply = try await api.send(.post, "/api/v1/users/\(id)/credentials/forgot_password?sendEmail=false")
            #expect(reply.status == .ok)
            let url = try #require(try reply.object()["resetPasswordUrl"] as? String)
            let prefix = "\(await api.state.orgURL)/signin/reset-password/"
            #expect(url.hasPrefix(prefix + "dfp"))
            #expect(try await api.status(of: id) == "ACTIVE")
            #expect(try await api.authnSignIn("forgot@example.com").authnStatus == "SUCCESS", "the old password still works")

            let redeemed = try await api.send(.post, "/api/v1/authn", json: ["token": String(url.dropFirst(prefix.count))], auth: .none)
            let stateToken = try #require(try redeemed.object()["stateToken"] as? String)
            let done = try await api.send(
                .post, "/api/v1/authn/credentials/reset_password", json: ["stateToken": stateToken, "newPassword": "Green-Valley-1"],
                auth: .none)
            #expect(done.authnStatus == "SUCCESS")
            #expect(try await api.authnSignIn("forgot@example.com", password: "Green-Valley-1").authnStatus == "SUCCESS")

            _ = try await api.send(.post, "/api/v1/users/\(id)/credentials/forgot_password")
            let mail = try await api.lastMessage(to: "forgot@example.com")
            #expect((mail["link"] as? String)?.hasPrefix(prefix + "dfp") == true)
        }
    }

    @Test("unlock: a user locked by wrong passwords is ACTIVE again and signs in; an ACTIVE one is E0000032")
    func unlock() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 3 }) { api in
            let id = try await Self.activeUser(api, "locked@example.com")
            let refused = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unlock")
            #expect(refused.status == .forbidden)
            #expect(try refused.oktaError().code == "E0000032")

            try await api.failSignIns("locked@example.com", 3)
            #expect(try await api.status(of: id) == "LOCKED_OUT")
            #expect(try await api.authnSignIn("locked@example.com").status == .unauthorized, "the right password does not help")
            let unlocked = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unlock")
            #expect(unlocked.status == .ok && unlocked.text == "{}")
            #expect(try await api.status(of: id) == "ACTIVE")
            // The count starts again: two wrong ones do not lock, the right one signs in.
            try await api.failSignIns("locked@example.com", 2)
            #expect(try await api.authnSignIn("locked@example.com").authnStatus == "SUCCESS")
        }
    }

    @Test("suspend and unsuspend refuse the wrong status with E0000038")
    func suspendTransitions() async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "sus@example.com")
            let wrongUnsuspend = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unsuspend")
            #expect(try wrongUnsuspend.status == .forbidden && wrongUnsuspend.oktaError().code == "E0000038")
            #expect(try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend").text == "{}")
            #expect(try await api.status(of: id) == "SUSPENDED")
            #expect(try await api.authnSignIn("sus@example.com").status == .unauthorized)
            let again = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend")
            #expect(try again.status == .forbidden && again.oktaError().code == "E0000038")
            #expect(try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unsuspend").text == "{}")
            #expect(try await api.authnSignIn("sus@example.com").authnStatus == "SUCCESS")
        }
    }

    @Test(
        "a STAGED user (no password yet) cannot be expired, reset or sent a forgot-password link",
        arguments: [
            ("lifecycle/expire_password", "E0000038"), ("lifecycle/expire_password_with_temp_password", "E0000038"),
            ("lifecycle/reset_password?sendEmail=false", "E0000038"), ("credentials/forgot_password?sendEmail=false", "E0000034"),
            ("lifecycle/unlock", "E0000032"),
        ])
    func refusedOnStaged(path: String, code: String) async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "staged@example.com")["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/\(path)")
            #expect(reply.status == .forbidden)
            #expect(try reply.oktaError().code == code)
            #expect(try await api.status(of: id) == "STAGED")
        }
    }

    @Test(
        "every new call on an unknown id is 404 E0000007",
        arguments: [
            "lifecycle/expire_password", "lifecycle/expire_password_with_temp_password", "lifecycle/reset_password",
            "credentials/forgot_password", "lifecycle/unlock", "lifecycle/reset_factors",
        ])
    func unknownUser(path: String) async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/users/00unobody00000000000/\(path)")
            #expect(reply.status == .notFound)
            #expect(try reply.oktaError().code == "E0000007")
        }
    }

    @Test("reset_factors forgets the phone and the security question; the password stays")
    func resetFactors() async throws {
        try await withSandbox { api in
            let id = try await Self.activeUser(api, "factors@example.com")
            try await api.giveRecoveryFactors("factors@example.com", phone: "+15555550199", question: ("Pet?", "Rex"))
            #expect(
                Set(try await api.authenticators(of: "factors@example.com").keys).isSuperset(of: ["phone_number", "security_question"]))
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_factors")
            #expect(reply.status == .ok && reply.text == "{}")
            #expect(Set(try await api.authenticators(of: "factors@example.com").keys) == ["okta_password", "okta_email"])
            #expect(try await api.authnSignIn("factors@example.com").authnStatus == "SUCCESS")
        }
    }

    @Test("the list filters by the new statuses")
    func listByStatus() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 2 }) { api in
            let locked = try await Self.activeUser(api, "l@example.com")
            let expired = try await Self.activeUser(api, "e@example.com")
            let recovering = try await Self.activeUser(api, "r@example.com")
            _ = try await Self.activeUser(api, "a@example.com")
            try await api.failSignIns("l@example.com", 2)
            _ = try await api.send(.post, "/api/v1/users/\(expired)/lifecycle/expire_password")
            _ = try await api.send(.post, "/api/v1/users/\(recovering)/lifecycle/reset_password?sendEmail=false")
            for (status, id) in [("LOCKED_OUT", locked), ("PASSWORD_EXPIRED", expired), ("RECOVERY", recovering)] {
                let filter = "status eq \"\(status)\"".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let list = try await api.send(.get, "/api/v1/users?filter=\(filter)").array()
                #expect(list.map { $0["id"] as? String } == [id], "\(status)")
            }
        }
    }

    @Test("each status offers the links of the calls it allows")
    func linksByStatus() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 1 }) { api in
            let id = try await Self.activeUser(api, "links@example.com")
            func links() async throws -> Set<String> {
                Set((try await api.send(.get, "/api/v1/users/\(id)").object()["_links"] as? [String: Any] ?? [:]).keys)
            }
            let active = try await links()
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password")
            #expect(try await links() == active, "PASSWORD_EXPIRED offers what ACTIVE does")
            let changed = try await api.authnSignIn("links@example.com")
            let stateToken = try #require(try changed.object()["stateToken"] as? String)
            _ = try await api.follow(
                try changed.linkHref("next"), ["stateToken": stateToken, "oldPassword": Self.password, "newPassword": "Links-Again-1"])
            try await api.failSignIns("links@example.com", 1)
            let locked = try await links()
            #expect(locked.contains("unlock") && !locked.contains("suspend"))
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_password?sendEmail=false")
            let recovery = try await links()
            #expect(recovery.contains("reactivate") && !recovery.contains("unlock"))
        }
    }
}
