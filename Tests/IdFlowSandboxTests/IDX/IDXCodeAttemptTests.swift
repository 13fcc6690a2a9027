import Foundation
import HTTPTypes
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// Issue 36 item 6 at the Identity Engine: a code (or security answer) has a limited number of tries per transaction
/// and per user, the transaction that uses them up ends with Okta's recorded `authfactor.challenge.suspended_factor`,
/// and codes expire on the sandbox clock.
@Suite struct IDXCodeAttemptTests {
    /// A sign-in of `login` (password, then the e-mail code) waiting for the code; returns the state handle and code.
    static func awaitingCode(_ api: SandboxClient, login: String) async throws -> (stateHandle: String, code: String) {
        let (stateHandle, _) = try await api.passwordAccepted(login: login, pkce: PKCEPair())
        let challenge = try await api.idx(
            "challenge", ["authenticator": ["id": "autidflowemail000000", "methodType": "email"], "stateHandle": stateHandle])
        #expect(challenge.remediationNames == ["challenge-authenticator"], "\(challenge.reply.text)")
        return (stateHandle, try #require(try await api.emailedCodes(to: login).last))
    }

    static func answer(_ api: SandboxClient, _ stateHandle: String, _ passcode: String) async throws -> IDXDocument {
        try await api.idx("challenge/answer", ["credentials": ["passcode": passcode], "stateHandle": stateHandle])
    }

    static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test func theFifthWrongCodeSuspendsTheFactorAndEndsTheTransaction() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let (stateHandle, code) = try await Self.awaitingCode(api, login: "ada@example.com")
            for _ in 1...4 {
                let wrong = try await Self.answer(api, stateHandle, Self.wrong(code))
                #expect(wrong.status == .badRequest && wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            }
            let fifth = try await Self.answer(api, stateHandle, Self.wrong(code))
            #expect(fifth.status == .badRequest)
            #expect(fifth.messageKeys == ["authfactor.challenge.suspended_factor"])
            #expect(fifth.messageTexts == ["This factor is suspended for your account due to too many failed attempts"])
            #expect(fifth.remediationNames == ["challenge-authenticator"], "the recorded document still shows the challenge")

            let right = try await Self.answer(api, stateHandle, code)
            #expect(right.status == .unauthorized && right.messageKeys == ["idx.session.expired"], "\(right.reply.text)")

            // A new transaction gives the user no fresh tries: the right code is refused and ends it too.
            let (again, newCode) = try await Self.awaitingCode(api, login: "ada@example.com")
            let refused = try await Self.answer(api, again, newCode)
            #expect(refused.messageKeys == ["authfactor.challenge.suspended_factor"], "\(refused.reply.text)")
            #expect(try await Self.answer(api, again, newCode).messageKeys == ["idx.session.expired"])
        }
    }

    @Test func aRightCodeClearsTheUsersCount() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            for _ in 0..<3 {
                let (stateHandle, code) = try await Self.awaitingCode(api, login: "ada@example.com")
                for _ in 1...4 {
                    #expect(
                        try await Self.answer(api, stateHandle, Self.wrong(code)).passcodeMessageKeys == [
                            "api.authn.error.PASSCODE_INVALID"
                        ])
                }
                let success = try await Self.answer(api, stateHandle, code)
                #expect(success.status == .ok && success.interactionCode != nil, "\(success.reply.text)")
            }
        }
    }

    @Test func theLimitIsThePolicys() async throws {
        let configure: (inout SandboxConfiguration) -> Void = {
            IDXSignInPolicyTests.configure([.password, .email])(&$0)
            $0.passwordPolicy.lockout.maxCodeAttempts = 1
        }
        try await withSandbox(configure: configure) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let (stateHandle, code) = try await Self.awaitingCode(api, login: "ada@example.com")
            #expect(try await Self.answer(api, stateHandle, Self.wrong(code)).messageKeys == ["authfactor.challenge.suspended_factor"])
        }
    }

    @Test func aCodeExpiresFiveMinutesAfterItWasSentOnTheSandboxClock() async throws {
        let configure: (inout SandboxConfiguration) -> Void = {
            IDXSignInPolicyTests.configure([.password, .email])(&$0)
            $0.freezeClock = true
        }
        try await withSandbox(configure: configure) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let (stateHandle, code) = try await Self.awaitingCode(api, login: "ada@example.com")
            await api.state.advanceClock(bySeconds: SandboxState.codeLifetime + 1)
            let late = try await Self.answer(api, stateHandle, code)
            #expect(late.status == .badRequest && late.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"], "\(late.reply.text)")
            let resent = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
            #expect(resent.status == .ok)
            let fresh = try #require(try await api.emailedCodes(to: "ada@example.com").last)
            #expect(try await Self.answer(api, stateHandle, fresh).status == .ok)
        }
    }
}
