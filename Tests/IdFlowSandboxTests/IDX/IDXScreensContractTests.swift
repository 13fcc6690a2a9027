import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// Enrollment grace periods and consent (`idx.gracePeriods`, `idx.consent`): the sandbox's documents have the widget
/// recordings' keys, remediation names, fields and values (Tests/Fixtures/okta-idx-widget), a grace lasts while its
/// date (on the sandbox clock) or its skips do, and consent is asked once per user and app.
@Suite struct IDXScreensContractTests {
    typealias Contract = IDXPolicyContractTests

    static func widget(_ name: String) throws -> [String: Any] { try Fixtures.object("okta-idx-widget/\(name)") }

    /// A policy requiring the phone, which users created through the API lack.
    static func phoneRequired(_ grace: IDXGracePeriod) -> (inout SandboxConfiguration) -> Void {
        {
            var policy = IDXPolicy(required: [.password, .phone], factors: 1)
            policy.gracePeriods = [.phone: grace]
            $0.idx = policy
        }
    }

    static func authenticator(_ document: IDXDocument, key: String) -> [String: Any]? {
        document.list("authenticators").first { $0["key"] as? String == key }
    }

    /// The recording's `gracePeriod` keys and values; the sandbox's `select-authenticator-enroll` and `skip` forms.
    @Test func aGraceByDateOffersSkipUntilTheSandboxClockPassesIt() async throws {
        // The sandbox clock starts at the real time: an expiry a day ahead, then the clock moved two days.
        let expiry = Date().addingTimeInterval(86_400)
        try await withSandbox(configure: Self.phoneRequired(IDXGracePeriod(expiry: expiry))) { api in
            _ = try await api.registerActiveUser(email: "gp@example.com")
            let pkce = PKCEPair()
            let (stateHandle, select) = try await api.passwordAccepted(login: "gp@example.com", pkce: pkce)
            let recorded = try Self.widget("authenticator-enroll-grace-period-with-skip.json")
            let names = ((recorded["remediation"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap {
                $0["name"] as? String
            }
            #expect(select.remediationNames == names, "\(select.reply.text)")
            // Every sandbox form also says `produces` (as most recordings do); this recording's `skip` leaves it out.
            Contract.expectSame(
                try Contract.formPaths(select.body, "skip"), try Contract.formPaths(recorded, "skip"), "skip", ignoring: ["produces"])
            let phone = try #require(Self.authenticator(select, key: "phone_number"))
            let grace = try #require(phone["gracePeriod"] as? [String: Any])
            #expect(grace["type"] as? String == "BY_DATE_TIME")
            let recordedPhone = ((recorded["authenticators"] as? [String: Any])?["value"] as? [[String: Any]])?.first {
                $0["key"] as? String == "phone_number"
            }
            #expect(Set(grace.keys) == Set((recordedPhone?["gracePeriod"] as? [String: Any] ?? [:]).keys))
            let shown = try #require(grace["expiry"] as? String)
            #expect(shown.hasSuffix("Z") && shown.contains("."), "milliseconds and Z, as recorded: \(shown)")

            let skipped = try await api.idx("skip", ["stateHandle": stateHandle])
            try await api.redeem(skipped, pkce: pkce)

            try await api.advanceClock(seconds: 2 * 86_400)
            let (_, enforced) = try await api.passwordAccepted(login: "gp@example.com", pkce: PKCEPair())
            #expect(enforced.remediationNames == ["select-authenticator-enroll"], "the grace is over: \(enforced.reply.text)")
        }
    }

    @Test func aGraceBySkipsCountsDownAcrossSignIns() async throws {
        try await withSandbox(configure: Self.phoneRequired(IDXGracePeriod(skips: 2))) { api in
            _ = try await api.registerActiveUser(email: "gs@example.com")
            var left: [Int] = []
            for _ in 0..<2 {
                let pkce = PKCEPair()
                let (stateHandle, select) = try await api.passwordAccepted(login: "gs@example.com", pkce: pkce)
                let grace = Self.authenticator(select, key: "phone_number")?["gracePeriod"] as? [String: Any]
                #expect(grace?["type"] as? String == "BY_SKIP_COUNT")
                left.append(grace?["remainingSkips"] as? Int ?? -1)
                try await api.redeem(try await api.idx("skip", ["stateHandle": stateHandle]), pkce: pkce)
            }
            #expect(left == [2, 1])
            let (stateHandle, enforced) = try await api.passwordAccepted(login: "gs@example.com", pkce: PKCEPair())
            #expect(enforced.remediationNames == ["select-authenticator-enroll"])
            #expect(Self.authenticator(enforced, key: "phone_number")?["gracePeriod"] as? [String: Any] != nil)
            let refused = try await api.idx("skip", ["stateHandle": stateHandle])
            #expect(refused.status == .badRequest, "no skip once the grace is over")
        }
    }

    static func consentFor(_ scopes: [String]) -> (inout SandboxConfiguration) -> Void {
        {
            var policy = IDXPolicy()
            policy.consent = [SandboxConfiguration.defaultClientId: scopes]
            $0.idx = policy
        }
    }

    /// `consent` as `consent-enduser.json` has it: the form's keys, its `scopes`' keys, the boolean's options; asked
    /// once, remembered once granted.
    @Test func consentHasTheRecordedFormAndIsRememberedOnceGranted() async throws {
        try await withSandbox(configure: Self.consentFor(["profile", "email"])) { api in
            _ = try await api.registerActiveUser(email: "cs@example.com")
            let pkce = PKCEPair()
            let (stateHandle, consent) = try await api.passwordAccepted(login: "cs@example.com", pkce: pkce)
            let recorded = try Self.widget("consent-enduser.json")
            #expect(consent.remediationNames == ["consent"], "\(consent.reply.text)")
            Contract.expectSame(
                try Contract.formPaths(consent.body, "consent"), try Contract.formPaths(recorded, "consent"), "consent")
            let field = ((consent.form("consent")?["value"] as? [[String: Any]]) ?? []).first { $0["name"] as? String == "consent" }
            let options = (field?["options"] as? [[String: Any]] ?? []).map { "\($0["label"] ?? "")=\($0["value"] ?? "")" }
            #expect(options == ["Allow Access=1", "Don't Allow=0"] || options == ["Allow Access=true", "Don't Allow=false"], "\(options)")
            let scopes = (consent.form("consent")?["scopes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(Set(scopes).isSubset(of: ["profile", "email"]) && !scopes.isEmpty, "\(scopes)")

            let granted = try await api.idx("consent", ["consent": true, "stateHandle": stateHandle])
            try await api.redeem(granted, pkce: pkce)
            let again = PKCEPair()
            let (_, remembered) = try await api.passwordAccepted(login: "cs@example.com", pkce: again)
            #expect(remembered.interactionCode != nil, "asked once: \(remembered.reply.text)")
        }
    }

    /// A refusal ends the transaction as `terminal-enduser-email-consent-denied.json` does: its message and key,
    /// nothing to submit.
    @Test func aRefusedConsentEndsTheSignInAsRecorded() async throws {
        try await withSandbox(configure: Self.consentFor(["profile"])) { api in
            _ = try await api.registerActiveUser(email: "cr@example.com")
            let (stateHandle, _) = try await api.passwordAccepted(login: "cr@example.com", pkce: PKCEPair())
            let refused = try await api.idx("consent", ["consent": false, "stateHandle": stateHandle])
            let recorded = try Self.widget("terminal-enduser-email-consent-denied.json")
            #expect(Set(refused.body.keys) == Set(recorded.keys), "\(refused.reply.text)")
            #expect(refused.messageKeys == ["idx.operation.cancelled.by.user"])
            #expect(refused.messageTexts == ["Operation cancelled by user."])
            #expect(refused.remediationNames.isEmpty)
            let after = try await api.idx("introspect", ["stateHandle": stateHandle])
            #expect(after.status == .unauthorized, "the transaction ended")
        }
    }

    @Test func aGracePeriodForAnAuthenticatorThePolicyDoesNotRequireIsRefused() throws {
        let json = #"{"idx": {"enroll": {"required": ["password"], "optional": ["phone"]}, "gracePeriods": {"phone": {"skips": 1}}}}"#
        #expect(throws: (any Error).self) { try IDXPolicyConfigurationTests.load(json) }
        let both =
            #"{"idx": {"enroll": {"required": ["password", "phone"]}, "gracePeriods": {"phone": {"skips": 1, "expiry": "2026-01-01T00:00:00Z"}}}}"#
        #expect(throws: (any Error).self) { try IDXPolicyConfigurationTests.load(both) }
        let good =
            #"{"idx": {"enroll": {"required": ["password", "phone"]}, "gracePeriods": {"phone": {"expiry": "2026-01-01T00:00:00Z"}}, "consent": {"c1": ["email"]}}}"#
        let loaded = try IDXPolicyConfigurationTests.load(good)
        #expect(loaded.idx.gracePeriods[.phone]?.expiry != nil && loaded.idx.consent["c1"] == ["email"])
    }
}
