import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// A locked account in the Identity Engine (idx.md §12.5): wrong passwords lock it under `passwordPolicy.lockout`, a
/// locked user's sign-in fails like any other, and `unlock-account` with a recovery authenticator's code unlocks it.
@Suite struct IDXUnlockAccountTests {
    static var threeStrikes: (inout SandboxConfiguration) -> Void { RecoveryPolicies.configure(lockout: LockoutPolicy(maxAttempts: 3)) }

    /// Wrong passwords until the account locks.
    static func lockOut(_ api: SandboxClient, login: String, attempts: Int = 3) async throws {
        for _ in 0..<attempts { try await api.passwordRefused(login: login, password: "Wrong-Guess-1") }
    }

    @Test func wrongPasswordsLockTheAccountThenAnEmailedCodeUnlocksItAndThePasswordSignsIn() async throws {
        try await withSandbox(configure: Self.threeStrikes) { api in
            let (userId, _) = try await api.registerActiveUser(email: "ada@example.com")
            try await Self.lockOut(api, login: "ada@example.com", attempts: 2)
            #expect(try await api.status(of: userId) == "ACTIVE", "two wrong passwords are not enough")
            try await Self.lockOut(api, login: "ada@example.com", attempts: 1)
            #expect(try await api.status(of: userId) == "LOCKED_OUT")
            // The right password now fails the same way as a wrong one: nothing says the account is locked.
            let locked = try await api.passwordRefused(login: "ada@example.com", password: "Correct-Horse-7")
            let wrong = try await api.passwordRefused(login: "ada@example.com", password: "Wrong-Guess-1")
            #expect(locked.messageTexts == wrong.messageTexts)

            let (stateHandle, identify) = try await api.atIdentify()
            #expect(identify.remediationNames == ["identify", "select-enroll-profile", "unlock-account"])
            let select = try await api.idx("unlock-account", ["stateHandle": stateHandle])
            #expect(select.remediationNames == ["select-authenticator-unlock-account"])
            #expect(select.offeredIDs("select-authenticator-unlock-account") == [RecoveryPolicies.emailID, RecoveryPolicies.phoneID])
            let challenge = try await api.idx(
                "challenge",
                [
                    "identifier": "ada@example.com", "authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"],
                    "stateHandle": stateHandle,
                ])
            #expect(challenge.remediationNames == ["challenge-authenticator"])
            let sent = try await api.lastCode(to: "ada@example.com")
            #expect(sent.message["subject"] as? String == "Your account unlock verification code")
            let wrongCode = try await api.idx("challenge/answer", ["credentials": ["passcode": "12"], "stateHandle": stateHandle])
            #expect(wrongCode.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            #expect(try await api.status(of: userId) == "LOCKED_OUT")

            let unlocked = try await api.idx("challenge/answer", ["credentials": ["passcode": sent.code], "stateHandle": stateHandle])
            #expect(unlocked.status == .ok)
            #expect(unlocked.remediationNames.isEmpty)
            #expect(unlocked.messageTexts == ["Your account is now unlocked!"])
            #expect(unlocked.messageClasses == ["INFO"])
            #expect(unlocked.interactionCode == nil, "an unlock does not sign in")
            #expect(try await api.status(of: userId) == "ACTIVE")

            let pkce = PKCEPair()
            let (_, success) = try await api.passwordAccepted(login: "ada@example.com", pkce: pkce)
            try await api.redeem(success, pkce: pkce)
            // The count started again: two wrong passwords after the unlock do not lock.
            try await Self.lockOut(api, login: "ada@example.com", attempts: 2)
            #expect(try await api.status(of: userId) == "ACTIVE")
        }
    }

    @Test func aTextedCodeUnlocksToo() async throws {
        let configure = RecoveryPolicies.configure(
            lockout: LockoutPolicy(maxAttempts: 1), idx: IDXPolicy(required: [.password, .phone], factors: 2))
        try await withSandbox(configure: configure) { api in
            try await IDXAuthenticatorTests.userWithPhone(api, email: "bo@example.com", number: "+15555550142")
            try await Self.lockOut(api, login: "bo@example.com", attempts: 1)
            let (stateHandle, _) = try await api.atIdentify()
            _ = try await api.idx("unlock-account", ["stateHandle": stateHandle])
            _ = try await api.idx(
                "challenge",
                [
                    "identifier": "bo@example.com", "authenticator": ["id": RecoveryPolicies.phoneID, "methodType": "voice"],
                    "stateHandle": stateHandle,
                ])
            let sent = try await api.lastCode(to: "+15555550142")
            #expect(sent.message["channel"] as? String == "voice")
            let unlocked = try await api.idx("challenge/answer", ["credentials": ["passcode": sent.code], "stateHandle": stateHandle])
            #expect(unlocked.messageKeys == ["oie.selfservice.unlock_user.success.message"])
        }
    }

    @Test func withSelfServiceUnlockOffIdentifyOffersNoUnlockAndTheEndpointRefuses() async throws {
        let configure = RecoveryPolicies.configure(lockout: LockoutPolicy(maxAttempts: 3, selfServiceUnlock: false))
        try await withSandbox(configure: configure) { api in
            let (stateHandle, identify) = try await api.atIdentify()
            #expect(identify.remediationNames == ["identify", "select-enroll-profile"])
            let refused = try await api.idx("unlock-account", ["stateHandle": stateHandle])
            #expect(refused.status == .badRequest)
            #expect(refused.messageKeys == ["oie.selfservice.user.unlock.not.allowed"])
            #expect(refused.remediationNames == ["identify", "select-enroll-profile"], "the sign-in can go on")
        }
    }

    @Test func anUnknownOrSuspendedUserCannotUnlockAndNothingIsSent() async throws {
        try await withSandbox(configure: Self.threeStrikes) { api in
            let (userId, _) = try await api.registerActiveUser(email: "cy@example.com")
            #expect(try await api.send(.post, "/api/v1/users/\(userId)/lifecycle/suspend").status == .ok)
            for login in ["nobody@example.com", "cy@example.com"] {
                let (stateHandle, _) = try await api.atIdentify()
                _ = try await api.idx("unlock-account", ["stateHandle": stateHandle])
                let refused = try await api.idx(
                    "challenge",
                    [
                        "identifier": login, "authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"],
                        "stateHandle": stateHandle,
                    ])
                #expect(refused.status == .badRequest, "\(login)")
                #expect(refused.messageKeys == ["oie.selfservice.user.unlock.not.allowed"], "\(login)")
                #expect(refused.remediationNames == ["select-authenticator-unlock-account"], "\(login)")
            }
            #expect(try await api.outbox(to: "cy@example.com").compactMap { $0["code"] }.isEmpty)
            #expect(try await api.status(of: userId) == "SUSPENDED")
        }
    }

    /// A user who is not locked goes the same way and is told the same (the recordings show no other answer).
    @Test func aUserWhoIsNotLockedIsToldTheAccountIsUnlocked() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "dee@example.com")
            let (stateHandle, _) = try await api.atIdentify()
            _ = try await api.idx("unlock-account", ["stateHandle": stateHandle])
            _ = try await api.idx(
                "challenge",
                [
                    "identifier": "dee@example.com", "authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"],
                    "stateHandle": stateHandle,
                ])
            let code = try await api.lastCode(to: "dee@example.com").code
            let unlocked = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(unlocked.messageKeys == ["oie.selfservice.unlock_user.success.message"])
            #expect(try await api.status(of: userId) == "ACTIVE")
        }
    }

    /// Okta's reset unlocks: a locked-out user who recovers the password signs in with the new one.
    @Test func aLockedOutUserWhoResetsThePasswordIsUnlocked() async throws {
        try await withSandbox(configure: Self.threeStrikes) { api in
            let (userId, _) = try await api.registerActiveUser(email: "eve@example.com")
            try await Self.lockOut(api, login: "eve@example.com")
            let pkce = PKCEPair()
            let (stateHandle, select) = try await api.recoverFromPasswordChallenge(login: "eve@example.com", pkce: pkce)
            #expect(select.remediationNames == ["select-authenticator-authenticate"])
            _ = try await api.idx(
                "challenge", ["authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"], "stateHandle": stateHandle])
            let code = try await api.lastCode(to: "eve@example.com").code
            _ = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": IDXPasswordRecoveryTests.newPassword], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)
            #expect(try await api.status(of: userId) == "ACTIVE")
        }
    }
}
