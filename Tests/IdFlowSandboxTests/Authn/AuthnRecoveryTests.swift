import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

/// The Authn recovery paths end to end over HTTP, the out-of-band secrets read from `/sandbox/outbox` as a test (or a
/// person at the sandbox) would: forgot password by e-mail link and by SMS code, unlock by e-mail, the security
/// question, and the answers that tell an attacker nothing.
@Suite("Authn recovery: forgot password and unlock")
struct AuthnRecoveryTests {
    static let phone = "+15555550142"

    static func recover(_ api: SandboxClient, _ path: String, _ body: [String: Any]) async throws -> Reply {
        try await api.send(.post, "/api/v1/authn/recovery/\(path)", json: body, auth: .none)
    }

    /// From PASSWORD_RESET: sets `password`, expects SUCCESS with a session, and signs in with it.
    static func finishReset(_ api: SandboxClient, _ reset: Reply, login: String, password: String) async throws {
        #expect(reset.authnStatus == "PASSWORD_RESET", "\(reset.text)")
        let stateToken = try #require(try reset.object()["stateToken"] as? String)
        let weak = try await api.follow(try reset.linkHref("next"), ["stateToken": stateToken, "newPassword": "weak"])
        #expect(try weak.status == .forbidden && weak.oktaError().code == "E0000080")
        let done = try await api.follow(try reset.linkHref("next"), ["stateToken": stateToken, "newPassword": password])
        #expect(done.authnStatus == "SUCCESS")
        #expect(try done.object()["sessionToken"] is String)
        #expect(try await api.authnSignIn(login, password: password).authnStatus == "SUCCESS")
        #expect(try await api.authnSignIn(login).status == .unauthorized, "the old password is gone")
    }

    @Test("forgot password by e-mail: the mailed recovery token leads to PASSWORD_RESET and a new password")
    func forgotByEmail() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "mailme@example.com")
            let challenge = try await Self.recover(api, "password", ["username": "mailme@example.com", "factorType": "EMAIL"])
            #expect(challenge.status == .ok)
            let body = try challenge.object()
            #expect(body["status"] as? String == "RECOVERY_CHALLENGE" && body["stateToken"] == nil)
            let mail = try await api.lastMessage(to: "mailme@example.com")
            let token = try #require(mail["recoveryToken"] as? String)
            #expect(mail["link"] as? String == "\(await api.state.orgURL)/signin/reset-password/\(token)")

            let reset = try await Self.recover(api, "token", ["recoveryToken": token])
            #expect(try reset.object()["recoveryType"] as? String == "PASSWORD")
            try await Self.finishReset(api, reset, login: "mailme@example.com", password: "Mailed-Reset-1")
            let reused = try await Self.recover(api, "token", ["recoveryToken": token])
            #expect(try reused.status == .unauthorized && reused.oktaError().code == "E0000011")
        }
    }

    @Test("forgot password by SMS: a wrong code is E0000068, the texted one leads to the question, then a new password")
    func forgotBySMS() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "texted@example.com")
            try await api.giveRecoveryFactors("texted@example.com", phone: Self.phone, question: ("Favourite river?", "Thames"))
            let challenge = try await Self.recover(api, "password", ["username": "texted@example.com", "factorType": "sms"])
            let body = try challenge.object()
            #expect(body["status"] as? String == "RECOVERY_CHALLENGE" && body["factorType"] as? String == "SMS")
            let stateToken = try #require(body["stateToken"] as? String)
            let text = try await api.lastMessage(to: Self.phone)
            #expect(text["channel"] as? String == "sms")
            let code = try #require(text["code"] as? String)

            let wrongCode = code == "000000" ? "111111" : "000000"
            let wrong = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": wrongCode])
            #expect(try wrong.status == .forbidden && wrong.oktaError().code == "E0000068")
            // Lower case, as Okta's reference sends it.
            let verified = try await api.send(
                .post, "/api/v1/authn/recovery/factors/sms/verify", json: ["stateToken": stateToken, "passCode": code], auth: .none)
            #expect(verified.authnStatus == "RECOVERY")
            let user = (try verified.object()["_embedded"] as? [String: Any])?["user"] as? [String: Any]
            #expect((user?["recovery_question"] as? [String: Any])?["question"] as? String == "Favourite river?")

            let wrongAnswer = try await api.follow(try verified.linkHref("next"), ["stateToken": stateToken, "answer": "Seine"])
            #expect(try wrongAnswer.status == .forbidden && wrongAnswer.oktaError().code == "E0000087")
            let reset = try await api.follow(try verified.linkHref("next"), ["stateToken": stateToken, "answer": " thames "])
            try await Self.finishReset(api, reset, login: "texted@example.com", password: "Orange-Sky-22")
        }
    }

    @Test("resend sends a new code (by call if asked) and the old one stops working")
    func resend() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "again@example.com")
            try await api.giveRecoveryFactors("again@example.com", phone: Self.phone)
            let challenge = try await Self.recover(api, "password", ["username": "again@example.com", "factorType": "SMS"])
            let stateToken = try #require(try challenge.object()["stateToken"] as? String)
            let first = try #require(try await api.lastMessage(to: Self.phone)["code"] as? String)
            let resent = try await api.send(
                .post, "/api/v1/authn/recovery/factors/CALL/resend", json: ["stateToken": stateToken], auth: .none)
            #expect(resent.authnStatus == "RECOVERY_CHALLENGE")
            #expect(try resent.object()["factorType"] as? String == "CALL")
            let call = try await api.lastMessage(to: Self.phone)
            #expect(call["channel"] as? String == "voice")
            let second = try #require(call["code"] as? String)
            if first != second {
                let old = try await api.follow(try resent.linkHref("next"), ["stateToken": stateToken, "passCode": first])
                #expect(old.status == .forbidden)
            }
            // No security question: straight to PASSWORD_RESET (the sandbox's choice).
            let reset = try await api.follow(try resent.linkHref("next"), ["stateToken": stateToken, "passCode": second])
            #expect(reset.authnStatus == "PASSWORD_RESET")
        }
    }

    @Test("unlock by e-mail: the mailed token unlocks (SUCCESS, no session) and the old password signs in again")
    func unlockByEmail() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 2 }) { api in
            let id = try await api.registerActiveUser(email: "unlockme@example.com").userId
            try await api.failSignIns("unlockme@example.com", 2)
            #expect(try await api.status(of: id) == "LOCKED_OUT")
            let challenge = try await Self.recover(api, "unlock", ["username": "unlockme@example.com", "factorType": "EMAIL"])
            #expect(try challenge.object()["recoveryType"] as? String == "UNLOCK")
            let mail = try await api.lastMessage(to: "unlockme@example.com")
            let token = try #require(mail["recoveryToken"] as? String)
            #expect(mail["link"] as? String == "\(await api.state.orgURL)/signin/unlock/\(token)")
            let done = try await Self.recover(api, "token", ["recoveryToken": token])
            let body = try done.object()
            #expect(body["status"] as? String == "SUCCESS" && body["recoveryType"] as? String == "UNLOCK")
            #expect(body["sessionToken"] == nil)
            #expect(try await api.status(of: id) == "ACTIVE")
            #expect(try await api.authnSignIn("unlockme@example.com").authnStatus == "SUCCESS")
        }
    }

    @Test("unlock by SMS with a security question: the answer unlocks")
    func unlockBySMS() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 1 }) { api in
            let id = try await api.registerActiveUser(email: "smsunlock@example.com").userId
            try await api.giveRecoveryFactors("smsunlock@example.com", phone: Self.phone, question: ("First car?", "Beetle"))
            try await api.failSignIns("smsunlock@example.com", 1)
            let challenge = try await Self.recover(api, "unlock", ["username": "smsunlock@example.com", "factorType": "SMS"])
            let stateToken = try #require(try challenge.object()["stateToken"] as? String)
            let code = try #require(try await api.lastMessage(to: Self.phone)["code"] as? String)
            let question = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": code])
            #expect(question.authnStatus == "RECOVERY")
            let done = try await api.follow(try question.linkHref("next"), ["stateToken": stateToken, "answer": "beetle"])
            #expect(done.authnStatus == "SUCCESS")
            #expect(try await api.status(of: id) == "ACTIVE")
        }
    }

    @Test("an unknown user, a user who is not locked and a user without a phone get the usual answer and nothing is sent")
    func noDisclosure() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "nophone@example.com")
            let known = try await Self.recover(api, "password", ["username": "nophone@example.com", "factorType": "EMAIL"])
            let unknown = try await Self.recover(api, "password", ["username": "ghost@example.com", "factorType": "EMAIL"])
            #expect(unknown.status == .ok && unknown.text == known.text)
            let notLocked = try await Self.recover(api, "unlock", ["username": "nophone@example.com", "factorType": "EMAIL"])
            #expect(notLocked.status == .ok && notLocked.authnStatus == "RECOVERY_CHALLENGE")
            let outbox = try await api.send(.get, "/sandbox/outbox").array()
            #expect(outbox.filter { $0["recoveryToken"] != nil }.count == 1, "only the known user's password mail")

            for username in ["nophone@example.com", "ghost@example.com"] {
                let sms = try await Self.recover(api, "password", ["username": username, "factorType": "SMS"])
                #expect(sms.status == .ok && sms.authnStatus == "RECOVERY_CHALLENGE")
                let stateToken = try #require(try sms.object()["stateToken"] as? String)
                let verify = try await api.follow(try sms.linkHref("next"), ["stateToken": stateToken, "passCode": "123456"])
                #expect(try verify.status == .forbidden && verify.oktaError().code == "E0000068")
            }
            #expect(try await api.send(.get, "/sandbox/outbox").array().count == outbox.count, "no text went anywhere")
        }
    }

    @Test("the policy decides: a factor that may not recover and an unlock without self-service are refused")
    func policyRefusals() async throws {
        try await withSandbox(configure: {
            $0.passwordPolicy.recovery.authenticators = [.email]
            $0.passwordPolicy.lockout.selfServiceUnlock = false
        }) { api in
            _ = try await api.registerActiveUser(email: "policy@example.com")
            let sms = try await Self.recover(api, "password", ["username": "policy@example.com", "factorType": "SMS"])
            #expect(sms.status == .forbidden)
            let unlock = try await Self.recover(api, "unlock", ["username": "policy@example.com", "factorType": "EMAIL"])
            #expect(unlock.status == .forbidden)
            let missing = try await Self.recover(api, "password", ["username": "policy@example.com"])
            #expect(missing.status == .badRequest)
        }
    }

    @Test("a bad recovery token is E0000011; a recovery state token cannot change a password")
    func badTokens() async throws {
        try await withSandbox { api in
            let bad = try await Self.recover(api, "token", ["recoveryToken": "not-a-token"])
            #expect(try bad.status == .unauthorized && bad.oktaError().code == "E0000011")
            _ = try await api.registerActiveUser(email: "state@example.com")
            try await api.giveRecoveryFactors("state@example.com", phone: Self.phone)
            let challenge = try await Self.recover(api, "password", ["username": "state@example.com", "factorType": "SMS"])
            let stateToken = try #require(try challenge.object()["stateToken"] as? String)
            let change = try await api.send(
                .post, "/api/v1/authn/credentials/change_password",
                json: ["stateToken": stateToken, "oldPassword": SandboxClient.recoveryPassword, "newPassword": "Sneaky-Change-7"],
                auth: .none)
            #expect(try change.status == .forbidden && change.oktaError().code == "E0000079")
            // The transaction can still be read back.
            let read = try await api.send(.post, "/api/v1/authn", json: ["stateToken": stateToken], auth: .none)
            #expect(read.authnStatus == "RECOVERY_CHALLENGE")
        }
    }
}
