import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// An expired or expiring password in the Identity Engine (idx.md §12.4), aged by the sandbox clock under
/// `passwordPolicy.age`: `reenroll-authenticator` must be answered, `reenroll-authenticator-warning` may be skipped, and
/// either goes on with the sign-in.
@Suite struct IDXPasswordExpiryTests {
    static let newPassword = "Fresh-Spring-21"
    static var thirtyDays: (inout SandboxConfiguration) -> Void {
        RecoveryPolicies.configure(age: PasswordAgePolicy(maxAgeDays: 30, expireWarnDays: 7))
    }

    @Test func anExpiredPasswordMustBeChangedThenTheSignInEndsWithTokens() async throws {
        try await withSandbox(configure: Self.thirtyDays) { api in
            let (userId, _) = try await api.registerActiveUser(email: "ada@example.com")
            try await api.advanceClock(seconds: 31 * RecoveryPolicies.day)
            let pkce = PKCEPair()
            let (stateHandle, reenroll) = try await api.passwordAccepted(login: "ada@example.com", pkce: pkce)
            #expect(reenroll.status == .ok)
            #expect(reenroll.remediationNames == ["reenroll-authenticator"], "no skip")
            #expect(reenroll.messageKeys.isEmpty)
            #expect(reenroll.passwordSettings?["complexity"] != nil)
            #expect(reenroll.object("recoveryAuthenticator")?["key"] as? String == "okta_password")
            #expect(try await api.status(of: userId) == "PASSWORD_EXPIRED")
            #expect(try await api.idx("skip", ["stateHandle": stateHandle]).status == .badRequest)

            // Okta's history: the expired password cannot be chosen again.
            let same = try await api.idx("challenge/answer", ["credentials": ["passcode": "Correct-Horse-7"], "stateHandle": stateHandle])
            #expect(same.status == .badRequest)
            #expect(same.remediationNames == ["reenroll-authenticator"])
            #expect(same.passcodeMessageKeys == ["password.passwordRequirementsNotMet"])

            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            let tokens = try await api.redeem(success, pkce: pkce)
            #expect(tokens["id_token"] != nil)
            #expect(try await api.status(of: userId) == "ACTIVE")

            let (_, again) = try await api.passwordAccepted(login: "ada@example.com", password: Self.newPassword, pkce: PKCEPair())
            #expect(again.interactionCode != nil, "the new password is young: no change asked")
        }
    }

    @Test func afterAnExpiredPasswordTheSignInAsksForThePolicysOtherFactors() async throws {
        let configure = RecoveryPolicies.configure(
            age: PasswordAgePolicy(maxAgeDays: 30), idx: IDXPolicy(authenticators: [.password, .email]))
        try await withSandbox(configure: configure) { api in
            _ = try await api.registerActiveUser(email: "bo@example.com")
            try await api.advanceClock(seconds: 40 * RecoveryPolicies.day)
            let (stateHandle, reenroll) = try await api.passwordAccepted(login: "bo@example.com", pkce: PKCEPair())
            #expect(reenroll.remediationNames == ["reenroll-authenticator"])
            let next = try await api.idx("challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            #expect(next.remediationNames == ["select-authenticator-authenticate"])
            #expect(next.interactionCode == nil)
        }
    }

    @Test func anExpiringPasswordWarnsAndCanBeSkipped() async throws {
        try await withSandbox(configure: Self.thirtyDays) { api in
            _ = try await api.registerActiveUser(email: "cy@example.com")
            try await api.advanceClock(seconds: 27 * RecoveryPolicies.day)
            let pkce = PKCEPair()
            let (stateHandle, warning) = try await api.passwordAccepted(login: "cy@example.com", pkce: pkce)
            #expect(warning.remediationNames == ["reenroll-authenticator-warning", "skip"])
            #expect(warning.messageKeys == ["idx.password.expiring.message"])
            #expect(warning.messageClasses == ["INFO"])
            #expect(warning.passwordSettings?["daysToExpiry"] as? Int == 3)
            let success = try await api.idx("skip", ["stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)

            // Skipped, the password stays and keeps warning.
            let (_, still) = try await api.passwordAccepted(login: "cy@example.com", pkce: PKCEPair())
            #expect(still.remediationNames == ["reenroll-authenticator-warning", "skip"])
        }
    }

    @Test func anExpiringPasswordCanBeChangedAtTheWarning() async throws {
        try await withSandbox(configure: Self.thirtyDays) { api in
            _ = try await api.registerActiveUser(email: "dee@example.com")
            try await api.advanceClock(seconds: 25 * RecoveryPolicies.day)
            let pkce = PKCEPair()
            let (stateHandle, warning) = try await api.passwordAccepted(login: "dee@example.com", pkce: pkce)
            #expect(warning.passwordSettings?["daysToExpiry"] as? Int == 5)
            let weak = try await api.idx("challenge/answer", ["credentials": ["passcode": "weak"], "stateHandle": stateHandle])
            #expect(weak.remediationNames == ["reenroll-authenticator-warning", "skip"])
            #expect(weak.passcodeMessageKeys == ["password.passwordRequirementsNotMet"])
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)

            try await api.passwordRefused(login: "dee@example.com", password: "Correct-Horse-7")
            let (_, fresh) = try await api.passwordAccepted(login: "dee@example.com", password: Self.newPassword, pkce: PKCEPair())
            #expect(fresh.interactionCode != nil, "a new password has no warning")
        }
    }

    /// PASSWORD_EXPIRED set directly (as the users API's `expire_password` does), with passwords that never age.
    @Test func aUserWhosePasswordWasExpiredByAnAdminChangesItTheSameWay() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "eli@example.com")
            await api.state.move(userId: userId, to: .passwordExpired)
            let pkce = PKCEPair()
            let (stateHandle, reenroll) = try await api.passwordAccepted(login: "eli@example.com", pkce: pkce)
            #expect(reenroll.remediationNames == ["reenroll-authenticator"])
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": Self.newPassword], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)
            #expect(try await api.status(of: userId) == "ACTIVE")
        }
    }
}
