import Foundation
import HTTPTypes
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// Codes are throttled as at Okta: anyone holding a state handle may ask for them, so a script asking again and
/// again must not fill the outbox (or, at a real org, someone's mailbox).
@Suite struct IDXCodeThrottleTests {
    /// A sign-up of `email` with the password enrolled and the e-mail code sent; returns the state handle.
    static func signUpAwaitingCode(_ api: SandboxClient, email: String) async throws -> String {
        let (stateHandle, _) = try await IDXSignUpPolicyTests.profileAccepted(api, email: email, pkce: PKCEPair())
        _ = try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
        let form = try await api.idx(
            "credential/enroll", ["authenticator": ["id": "autidflowemail000000", "methodType": "email"], "stateHandle": stateHandle])
        #expect(form.remediationNames == ["enroll-authenticator"])
        return stateHandle
    }

    @Test func resendsWithinThirtySecondsSendNothingAndSayWhy() async throws {
        // A frozen clock: on a loaded machine twenty resends may take longer than the 30 s they are refused within.
        let configure: (inout SandboxConfiguration) -> Void = {
            IDXSignInPolicyTests.configure([.password, .email])(&$0)
            $0.freezeClock = true
        }
        try await withSandbox(configure: configure) { api in
            let stateHandle = try await Self.signUpAwaitingCode(api, email: "new@example.com")
            for _ in 0..<20 {
                let refused = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
                // `error-429-authenticator-verification-email-polling.json`: 429, "Too many requests", the step's document.
                #expect(refused.status == .tooManyRequests)
                #expect(refused.messageKeys == ["tooManyRequests"])
                #expect(refused.messageTexts == ["Too many requests"])
                #expect(refused.reply.header("X-Rate-Limit-Remaining") == "0", "the throttle says when another code may go")
                #expect(refused.remediationNames == ["enroll-authenticator"], "the code step stays where it was")
            }
            let first = try await api.emailedCodes(to: "new@example.com")
            #expect(first.count == 1, "only the first code was sent")

            await api.state.advanceClock(bySeconds: SandboxState.codeResendInterval)
            let resent = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
            #expect(resent.status == .ok && resent.messageKeys.isEmpty)
            #expect(try await api.emailedCodes(to: "new@example.com").count == 2)

            let code = try #require(try await api.emailedCodes(to: "new@example.com").last)
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(success.status == .ok, "the code sent after the wait works: \(success.reply.text)")
        }
    }

    @Test func choosingTheEmailAgainIsThrottledToo() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let (stateHandle, _) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            let choose: [String: Any] = [
                "authenticator": ["id": "autidflowemail000000", "methodType": "email"], "stateHandle": stateHandle,
            ]
            #expect(try await api.idx("challenge", choose).status == .ok)
            let again = try await api.idx("challenge", choose)
            #expect(again.status == .tooManyRequests)
            #expect(again.messageKeys == ["tooManyRequests"])
            #expect(again.remediationNames == ["challenge-authenticator"])
            #expect(try await api.idx("challenge/resend", ["stateHandle": stateHandle]).status == .tooManyRequests)
            #expect(try await api.emailedCodes(to: "ada@example.com").count == 1)
        }
    }
}
