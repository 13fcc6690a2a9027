import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

/// Issue 36 items 6 and 11 at the Authn recovery API: recovery codes and answers have a limited number of tries per
/// transaction and per user, a wrong one does not keep the transaction alive, codes expire on the sandbox clock,
/// and anonymous recovery requests leave one live recovery token per user, not one each.
@Suite("Authn recovery: limited tries, expiring codes, one live token")
struct AuthnRecoveryAttemptTests {
    static let phone = AuthnRecoveryTests.phone

    /// An SMS password recovery for `login`; returns the challenge and its state token.
    static func smsChallenge(_ api: SandboxClient, _ login: String) async throws -> (Reply, String) {
        let challenge = try await AuthnRecoveryTests.recover(api, "password", ["username": login, "factorType": "SMS"])
        return (challenge, try #require(try challenge.object()["stateToken"] as? String, "\(challenge.text)"))
    }

    static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test("the fifth wrong code ends the transaction (E0000068, then E0000011); the user's next one gets no fresh tries")
    func codeAttemptsAreLimited() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "guess@example.com")
            try await api.giveRecoveryFactors("guess@example.com", phone: Self.phone)
            let (challenge, stateToken) = try await Self.smsChallenge(api, "guess@example.com")
            let code = try #require(try await api.lastMessage(to: Self.phone)["code"] as? String)
            for attempt in 1...5 {
                let wrong = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": Self.wrong(code)])
                #expect(try wrong.status == .forbidden && wrong.oktaError().code == "E0000068", "attempt \(attempt): \(wrong.text)")
            }
            let right = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": code])
            #expect(try right.status == .unauthorized && right.oktaError().code == "E0000011", "the transaction is over: \(right.text)")

            let (again, secondToken) = try await Self.smsChallenge(api, "guess@example.com")
            let newCode = try #require(try await api.lastMessage(to: Self.phone)["code"] as? String)
            let refused = try await api.follow(try again.linkHref("next"), ["stateToken": secondToken, "passCode": newCode])
            #expect(try refused.status == .forbidden && refused.oktaError().code == "E0000068", "the user has no tries left")
            let ended = try await api.follow(try again.linkHref("next"), ["stateToken": secondToken, "passCode": newCode])
            #expect(try ended.oktaError().code == "E0000011")
        }
    }

    @Test("wrong answers to the recovery question are limited the same way")
    func answerAttemptsAreLimited() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxCodeAttempts = 2 }) { api in
            _ = try await api.registerActiveUser(email: "quiz@example.com")
            try await api.giveRecoveryFactors("quiz@example.com", phone: Self.phone, question: ("Favourite river?", "Thames"))
            let (challenge, stateToken) = try await Self.smsChallenge(api, "quiz@example.com")
            let code = try #require(try await api.lastMessage(to: Self.phone)["code"] as? String)
            let verified = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": code])
            #expect(verified.authnStatus == "RECOVERY", "\(verified.text)")
            for _ in 1...2 {
                let wrong = try await api.follow(try verified.linkHref("next"), ["stateToken": stateToken, "answer": "Seine"])
                #expect(try wrong.oktaError().code == "E0000087")
            }
            let right = try await api.follow(try verified.linkHref("next"), ["stateToken": stateToken, "answer": "Thames"])
            #expect(try right.status == .unauthorized && right.oktaError().code == "E0000011", "\(right.text)")
        }
    }

    @Test("a wrong code does not extend the transaction: it still ends five minutes after it began")
    func wrongCodesDoNotExtend() async throws {
        // A frozen clock: only the advances below move it, however slowly a loaded machine runs the test.
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            _ = try await api.registerActiveUser(email: "slow@example.com")
            try await api.giveRecoveryFactors("slow@example.com", phone: Self.phone)
            let (challenge, stateToken) = try await Self.smsChallenge(api, "slow@example.com")
            let expiresAt = try #require(try challenge.object()["expiresAt"] as? String)
            let code = try #require(try await api.lastMessage(to: Self.phone)["code"] as? String)
            try await api.advanceClock(seconds: 240)
            let wrong = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": Self.wrong(code)])
            #expect(try wrong.oktaError().code == "E0000068")
            try await api.advanceClock(seconds: 61)
            let late = try await api.follow(try challenge.linkHref("next"), ["stateToken": stateToken, "passCode": code])
            #expect(try late.status == .unauthorized && late.oktaError().code == "E0000011", "expired at \(expiresAt): \(late.text)")
        }
    }

    @Test("each anonymous recovery e-mail replaces the user's older token: one live token, not one per request")
    func oneLiveRecoveryToken() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "flooded@example.com")
            for _ in 0..<20 {
                let reply = try await AuthnRecoveryTests.recover(
                    api, "password", ["username": "flooded@example.com", "factorType": "EMAIL"])
                #expect(reply.status == .ok)
            }
            #expect(try await api.send(.get, "/sandbox/records").object()["recoveryGrants"] as? Int == 1)
            let mails = try await api.send(.get, "/sandbox/outbox").array().filter { $0["to"] as? String == "flooded@example.com" }
            let tokens = mails.compactMap { $0["recoveryToken"] as? String }
            #expect(tokens.count == 20)
            let old = try await AuthnRecoveryTests.recover(api, "token", ["recoveryToken": try #require(tokens.first)])
            #expect(try old.status == .unauthorized && old.oktaError().code == "E0000011")
            let newest = try await AuthnRecoveryTests.recover(api, "token", ["recoveryToken": try #require(tokens.last)])
            #expect(newest.status == .ok, "\(newest.text)")
        }
    }
}
