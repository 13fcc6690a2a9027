import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The recovery, expiry and unlock documents have the remediation names, key paths and message keys of the recorded
/// documents of their kind (Tests/Fixtures/okta-idx, idx.md §12.3–§12.5).
struct IDXRecoveryContractTests {
    typealias Contract = IDXPolicyContractTests
    typealias Recorded = IDXAuthenticatorContractTests

    /// The newer `revokeSessions` checkbox of `error-recovery-reset-password-requirements.json`, which the sandbox
    /// does not offer (it has no sessions to revoke).
    static let revokeSessions: Set<String> = [
        "remediation.value[].value[].form.value[].type"
    ]

    /// The top-level message's text, key and class, as a test compares them with a recording's.
    static func messages(_ document: [String: Any]) -> [[String]] {
        ((document["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).map {
            [$0["message"] as? String ?? "", ($0["i18n"] as? [String: Any])?["key"] as? String ?? "", $0["class"] as? String ?? ""]
        }
    }

    @Test func theForgottenPasswordDocumentsHaveTheRecordedKeys() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            // `identify` with `unlock-account` beside it, and the password's `recover` on the challenge.
            let (identifyHandle, identify) = try await api.atIdentify()
            let recordedIdentify = try Contract.fixture("identify-with-recover-and-unlock-account.json")
            Contract.expectSame(
                try Contract.formPaths(identify.body, "unlock-account"), try Contract.formPaths(recordedIdentify, "unlock-account"),
                "unlock-account")
            let identifyRecovery = try await api.idx("recover", ["stateHandle": identifyHandle])
            try Recorded.expectRecorded(identifyRecovery, "recovery-identify-recovery.json")

            let pkce = PKCEPair()
            let stateHandle = try await api.identified(as: "ada@example.com", pkce: pkce)
            let challenge = try await api.idx("introspect", ["stateHandle": stateHandle])
            Contract.expectSame(
                Contract.paths(challenge.body, under: "currentAuthenticatorEnrollment.value"),
                Contract.paths(
                    try Contract.fixture("03-challenge-authenticator-password.json"), under: "currentAuthenticatorEnrollment.value"),
                "password challenge with recover", ignoring: ["key", "recover.produces"])

            let select = try await api.idx("recover", ["stateHandle": stateHandle])
            try Recorded.expectRecorded(select, "recovery-select-authenticator-authenticate.json", ignoring: Recorded.user)
            let code = try await api.idx(
                "challenge", ["authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"], "stateHandle": stateHandle])
            try Recorded.expectRecorded(code, "recovery-challenge-email.json", ignoring: Recorded.user)

            let sent = try await api.lastCode(to: "ada@example.com").code
            let reset = try await api.idx("challenge/answer", ["credentials": ["passcode": sent], "stateHandle": stateHandle])
            try Recorded.expectRecorded(reset, "recovery-reset-authenticator.json", ignoring: Recorded.user)

            let refused = try await api.idx("challenge/answer", ["credentials": ["passcode": "short"], "stateHandle": stateHandle])
            try Recorded.expectRecorded(
                refused, "error-recovery-reset-password-requirements.json", ignoring: Recorded.user.union(Self.revokeSessions))
            try Recorded.expectMessageKeys(refused, as: "error-recovery-reset-password-requirements.json")

            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": IDXPasswordRecoveryTests.newPassword], "stateHandle": stateHandle])
            try Recorded.expectRecorded(success, "recovery-success-after-reset.json", ignoring: Recorded.user)
        }
    }

    @Test func theExpiredAndExpiringPasswordDocumentsHaveTheRecordedKeys() async throws {
        try await withSandbox(configure: IDXPasswordExpiryTests.thirtyDays) { api in
            _ = try await api.registerActiveUser(email: "old@example.com")
            _ = try await api.registerActiveUser(email: "aging@example.com")
            try await api.advanceClock(seconds: 24 * RecoveryPolicies.day)
            let (_, warning) = try await api.passwordAccepted(login: "aging@example.com", pkce: PKCEPair())
            // The recording spells the exclusions the older way (`excludeFirstName`, `excludeLastName`).
            let complexity = "currentAuthenticator.value.settings.complexity"
            try Recorded.expectRecorded(
                warning, "password-expiry-warning.json",
                // Nor does it say what each form `produces`.
                ignoring: Recorded.user.union([
                    "\(complexity).excludeFirstName", "\(complexity).excludeLastName", "\(complexity).excludeAttributes",
                    "remediation.value[].produces", "cancel.produces",
                ]))
            try Recorded.expectMessageKeys(warning, as: "password-expiry-warning.json")

            try await api.advanceClock(seconds: 7 * RecoveryPolicies.day)
            let (_, expired) = try await api.passwordAccepted(login: "old@example.com", pkce: PKCEPair())
            try Recorded.expectRecorded(expired, "password-expired-reenroll-authenticator.json", ignoring: Recorded.user)
        }
    }

    @Test func theUnlockDocumentsHaveTheRecordedKeysAndMessages() async throws {
        try await withSandbox(configure: IDXUnlockAccountTests.threeStrikes) { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            try await IDXUnlockAccountTests.lockOut(api, login: "ada@example.com")
            let locked = try await api.passwordRefused(login: "ada@example.com", password: "Correct-Horse-7")
            let recordedFailure = try Contract.fixture("error-identify-authentication-failed.json")
            #expect(Self.messages(locked.body) == Self.messages(recordedFailure))

            let (stateHandle, _) = try await api.atIdentify()
            let select = try await api.idx("unlock-account", ["stateHandle": stateHandle])
            // The recorded org also lists Okta Verify, which cannot unlock (it has no option there).
            try Recorded.expectRecorded(select, "unlock-account-select-authenticator.json")
            _ = try await api.idx(
                "challenge",
                [
                    "identifier": "ada@example.com", "authenticator": ["id": RecoveryPolicies.emailID, "methodType": "email"],
                    "stateHandle": stateHandle,
                ])
            let code = try await api.lastCode(to: "ada@example.com").code
            let unlocked = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            try Recorded.expectRecorded(unlocked, "unlock-account-success.json")
            #expect(Self.messages(unlocked.body) == Self.messages(try Contract.fixture("unlock-account-success.json")))

            try await withSandbox(configure: RecoveryPolicies.configure(lockout: LockoutPolicy(selfServiceUnlock: false))) { off in
                let (handle, _) = try await off.atIdentify()
                let refused = try await off.idx("unlock-account", ["stateHandle": handle])
                #expect(Self.messages(refused.body) == Self.messages(try Contract.fixture("error-unlock-account-not-allowed.json")))
            }
        }
    }
}
