import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// A forgotten password in the Identity Engine (idx.md §12.3): the password's `recover`, a recovery authenticator's
/// code from the outbox, `reset-authenticator` with the sandbox's rules, and the sign-in that follows.
@Suite struct IDXPasswordRecoveryTests {
    static let newPassword = "Brand-New-Pass-9"

    @Test func aForgottenPasswordIsResetWithAnEmailedCodeAndTheUserIsSignedIn() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "ada@example.com")
            try await api.advanceClock(seconds: 60)
            let pkce = PKCEPair()
            let stateHandle = try await api.identified(as: "ada@example.com", pkce: pkce)
            let challenge = try await api.idx("introspect", ["stateHandle": stateHandle])
            let recover = try #require(challenge.object("currentAuthenticatorEnrollment")?["recover"] as? [String: Any])
            #expect((recover["href"] as? String)?.hasSuffix("/idp/idx/recover") == true)

            let select = try await api.idx("recover", ["stateHandle": stateHandle])
            #expect(select.status == .ok)
            #expect(select.remediationNames == ["select-authenticator-authenticate"])
            #expect(select.offeredIDs("select-authenticator-authenticate") == [RecoveryPolicies.emailID], "no phone enrolled")
            #expect(select.object("recoveryAuthenticator")?["key"] as? String == "okta_password")

            let code = try await api.idx(
                "challenge", ["authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"], "stateHandle": stateHandle])
            #expect(code.remediationNames == ["challenge-authenticator"])
            #expect(code.object("recoveryAuthenticator") != nil)
            let sent = try await api.lastCode(to: "ada@example.com")
            #expect(sent.message["subject"] as? String == "Your password reset verification code")
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "000000x"], "stateHandle": stateHandle])
            #expect(wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])

            let reset = try await api.idx("challenge/answer", ["credentials": ["passcode": sent.code], "stateHandle": stateHandle])
            #expect(reset.remediationNames == ["reset-authenticator"])
            let complexity = try #require(reset.passwordSettings?["complexity"] as? [String: Any])
            #expect(complexity["minLength"] as? Int == 8 && complexity["minUpperCase"] as? Int == 1)
            // The password is unchanged until a new one is accepted.
            let (_, meanwhile) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            #expect(meanwhile.interactionCode != nil)

            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            #expect(success.interactionCode != nil, "\(success.reply.text)")
            let tokens = try await api.redeem(success, pkce: pkce)
            #expect(tokens["access_token"] != nil)

            try await api.passwordRefused(login: "ada@example.com", password: "Correct-Horse-7")
            let (_, signedIn) = try await api.passwordAccepted(login: "ada@example.com", password: Self.newPassword, pkce: PKCEPair())
            #expect(signedIn.interactionCode != nil, "the new password signs in")
            #expect(try await api.status(of: userId) == "ACTIVE")
        }
    }

    @Test func aRefusedNewPasswordCanBeGivenAgainInTheSameTransaction() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "bob@example.com")
            let before = try await api.user(userId)["passwordChanged"] as? String
            try await api.advanceClock(seconds: 120)
            let pkce = PKCEPair()
            let (stateHandle, _) = try await api.recoverFromPasswordChallenge(login: "bob@example.com", pkce: pkce)
            _ = try await api.idx(
                "challenge", ["authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"], "stateHandle": stateHandle])
            let code = try await api.lastCode(to: "bob@example.com").code
            _ = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])

            for refused in ["short", "Correct-Horse-7", "Bob-is-here-12"] {
                let again = try await api.idx("challenge/answer", ["credentials": ["passcode": refused], "stateHandle": stateHandle])
                #expect(again.status == .badRequest, "\(refused)")
                #expect(again.remediationNames == ["reset-authenticator"], "\(refused)")
                #expect(again.passcodeMessageKeys == ["password.passwordRequirementsNotMet"], "\(refused)")
            }
            #expect(try await api.user(userId)["passwordChanged"] as? String == before, "nothing changed yet")
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)
            #expect(try await api.user(userId)["passwordChanged"] as? String != before)
        }
    }

    @Test func aForgottenPasswordIsResetWithATextedCode() async throws {
        let configure = RecoveryPolicies.configure(idx: IDXPolicy(required: [.password, .phone], factors: 2))
        try await withSandbox(configure: configure) { api in
            try await IDXAuthenticatorTests.userWithPhone(api, email: "cy@example.com", number: "+15555550123")
            let pkce = PKCEPair()
            let (stateHandle, select) = try await api.recoverFromPasswordChallenge(login: "cy@example.com", pkce: pkce)
            #expect(select.offeredIDs("select-authenticator-authenticate") == [RecoveryPolicies.emailID, RecoveryPolicies.phoneID])

            let challenge = try await api.idx(
                "challenge", ["authenticator": ["id": RecoveryPolicies.phoneID, "methodType": "sms"], "stateHandle": stateHandle])
            #expect(challenge.remediationNames.first == "challenge-authenticator")
            let sent = try await api.lastCode(to: "+15555550123")
            #expect(sent.message["channel"] as? String == "sms")
            #expect(try await api.outbox(to: "cy@example.com").isEmpty, "nothing e-mailed")

            let reset = try await api.idx("challenge/answer", ["credentials": ["passcode": sent.code], "stateHandle": stateHandle])
            #expect(reset.remediationNames == ["reset-authenticator"])
            // The phone and the new password are the two factors the sign-in policy asks for.
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func anOktaVerifyPushCanProveWhoForgotThePassword() async throws {
        try await withSandbox(configure: RecoveryPolicies.configure(recovery: RecoveryPolicy(authenticators: [.oktaVerify]))) { api in
            let device = try await api.enrollDevice(email: "ova@example.com")
            let pkce = PKCEPair()
            let (stateHandle, select) = try await api.recoverFromPasswordChallenge(login: "ova@example.com", pkce: pkce)
            #expect(select.offeredIDs("select-authenticator-authenticate") == ["autidflowsandbox0000"])
            let waiting = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowsandbox0000", "methodType": "push"], "stateHandle": stateHandle])
            #expect(waiting.remediationNames.first == "challenge-poll")
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try await api.respond(to: challenge, device: device).status == .ok)
            let reset = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            #expect(reset.remediationNames == ["reset-authenticator"])
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func recoveringBeforeNamingTheUserAsksForTheUsername() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "dee@example.com")
            let (stateHandle, _) = try await api.atIdentify()
            let identify = try await api.idx("recover", ["stateHandle": stateHandle])
            #expect(identify.remediationNames == ["identify-recovery"])
            #expect((identify.form("identify-recovery")?["href"] as? String)?.hasSuffix("/idp/idx/identify") == true)
            let select = try await api.idx("identify", ["identifier": "dee@example.com", "stateHandle": stateHandle])
            #expect(select.remediationNames == ["select-authenticator-authenticate"])
            #expect(select.offeredIDs("select-authenticator-authenticate") == [RecoveryPolicies.emailID])
        }
    }

    /// No recording shows an unknown user's recovery; the sandbox answers it as it answers a user without a recovery
    /// authenticator, so a recovery does not tell who exists beyond that.
    @Test func anUnknownUserAndAUserWithoutARecoveryAuthenticatorGetTheSameRefusal() async throws {
        try await withSandbox(configure: RecoveryPolicies.configure(recovery: RecoveryPolicy(authenticators: [.phone]))) { api in
            _ = try await api.registerActiveUser(email: "eve@example.com")
            var refusals: [[String]] = []
            for login in ["eve@example.com", "nobody@example.com"] {
                let (stateHandle, _) = try await api.atIdentify()
                _ = try await api.idx("recover", ["stateHandle": stateHandle])
                let refused = try await api.idx("identify", ["identifier": login, "stateHandle": stateHandle])
                #expect(refused.status == .badRequest)
                #expect(refused.remediationNames == ["identify-recovery"], "the username can be given again")
                refusals.append(refused.messageTexts + refused.messageKeys)
            }
            #expect(refusals[0] == refusals[1])
            #expect(refusals[0].contains("oie.selfservice.reset.password.not.allowed"))
        }
    }

    @Test func withoutRecoveryAuthenticatorsThePasswordOffersNoRecover() async throws {
        try await withSandbox(configure: RecoveryPolicies.configure(recovery: RecoveryPolicy(authenticators: []))) { api in
            _ = try await api.registerActiveUser(email: "fay@example.com")
            let (identifyHandle, identify) = try await api.atIdentify()
            #expect(!identify.remediationNames.contains("unlock-account"), "nothing to unlock with")
            #expect(try await api.idx("recover", ["stateHandle": identifyHandle]).status == .badRequest)
            let stateHandle = try await api.identified(as: "fay@example.com", pkce: PKCEPair())
            let challenge = try await api.idx("introspect", ["stateHandle": stateHandle])
            #expect(challenge.object("currentAuthenticatorEnrollment")?["recover"] == nil)
            let refused = try await api.idx("recover", ["stateHandle": stateHandle])
            #expect(refused.status == .badRequest)
            #expect(refused.messageKeys == ["oie.selfservice.reset.password.not.allowed"])
        }
    }

    @Test func aSuspendedUserCannotRecoverThePassword() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "gil@example.com")
            #expect(try await api.send(.post, "/api/v1/users/\(userId)/lifecycle/suspend").status == .ok)
            try await api.passwordRefused(login: "gil@example.com", password: "Correct-Horse-7")
            let (_, refused) = try await api.recoverFromPasswordChallenge(login: "gil@example.com", pkce: PKCEPair())
            #expect(refused.status == .badRequest)
            #expect(refused.messageKeys == ["oie.selfservice.reset.password.not.allowed"])
            #expect(try await api.outbox(to: "gil@example.com").compactMap { $0["code"] }.isEmpty)
        }
    }
}
