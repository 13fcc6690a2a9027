import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// Every document the second factors and the policy's sign-up produce has the key paths of the recorded
/// document of its kind (Tests/Fixtures/okta-idx): top level, remediation forms, authenticator objects.
struct IDXPolicyContractTests {
    static func fixture(_ name: String) throws -> [String: Any] { try Fixtures.object("okta-idx/\(name)") }

    /// `key` on authenticators and `identifier`/`profile` on the user are in newer recordings than some.
    static let newer: Set<String> = IDXFixtureContractTests.newerUserKeys.union([
        "authenticators.value[].key", "authenticatorEnrollments.value[].key", "currentAuthenticatorEnrollment.value.key",
    ])

    static func expectSame(
        _ got: Set<String>, _ expected: Set<String>, _ what: String, ignoring: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (got, expected) = (got.subtracting(ignoring), expected.subtracting(ignoring))
        #expect(
            got == expected, "\(what): missing \(expected.subtracting(got).sorted()), extra \(got.subtracting(expected).sorted())",
            sourceLocation: sourceLocation)
    }

    /// The key paths under `prefix` (`remediation`, `currentAuthenticator.value`), relative to it.
    static func paths(_ document: [String: Any], under prefix: String) -> Set<String> {
        Set(keyPaths(document).filter { $0.hasPrefix(prefix + ".") }.map { String($0.dropFirst(prefix.count + 1)) })
    }

    /// The key paths of the remediation form `name`.
    static func formPaths(_ document: [String: Any], _ name: String) throws -> Set<String> {
        let forms = (document["remediation"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
        return keyPaths(try #require(forms.first { $0["name"] as? String == name }, "no form \(name)"))
    }

    @Test func theEmailSecondFactorsDocumentsHaveTheRecordedKeys() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let (stateHandle, select) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            Self.expectSame(
                keyPaths(select.body), keyPaths(try Self.fixture("select-authenticator-authenticate.json")),
                "select-authenticator-authenticate",
                // The recording also lists a security question enrollment, which the sandbox does not have.
                ignoring: Self.newer.union([
                    "authenticatorEnrollments.value[].profile.question", "authenticatorEnrollments.value[].profile.questionKey",
                ]))

            let challenge = try await api.idx("challenge", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": stateHandle])
            Self.expectSame(
                keyPaths(challenge.body), keyPaths(try Self.fixture("challenge-email-with-poll-and-resend.json")),
                "challenge-authenticator (email)", ignoring: Self.newer)

            // A wrong code: the recorded password challenge's form with the message on the passcode (its
            // authenticator is a password with `recover`, so only the form and the top level are compared).
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "x"], "stateHandle": stateHandle])
            let recorded = try Self.fixture("error-challenge-invalid-passcode.json")
            Self.expectSame(
                Self.paths(wrong.body, under: "remediation"), Self.paths(recorded, under: "remediation"), "PASSCODE_INVALID form",
                ignoring: ["value[].produces"])
            Self.expectSame(Set(wrong.body.keys), Set(recorded.keys), "PASSCODE_INVALID top level")
        }
    }

    @Test func theOktaVerifyDocumentsHaveTheRecordedKeys() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .oktaVerify])) { api in
            let device = try await api.enrollDevice(email: "ov@example.com")
            let (stateHandle, poll) = try await IDXSignInPolicyTests.pushSent(api, device, pkce: PKCEPair())
            let recorded = try Self.fixture("okta-verify-push-challenge-poll.json")
            // Not emulated: number challenges (`contextualData`), TOTP as a method choice, a time zone and
            // locale on the user (the sandbox's user has none).
            let methodChoice = "remediation.value[].value[].options[].value.form.value[]"
            Self.expectSame(
                keyPaths(poll.body), keyPaths(recorded), "challenge-poll",
                ignoring: [
                    "currentAuthenticator.value.contextualData", "currentAuthenticator.value.contextualData.correctAnswer",
                    "\(methodChoice).options", "\(methodChoice).options[].label", "\(methodChoice).options[].value", "\(methodChoice).type",
                    "user.value.profile.timeZone", "user.value.profile.locale",
                ])

            let challenge = try #require(try await api.pendingChallenges(device).first)
            _ = try await api.respond(to: challenge, device: device, consent: "DENIED_CONSENT_PROMPT")
            let rejected = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            Self.expectSame(
                Set(rejected.body.keys), Set(recorded.keys).subtracting(["currentAuthenticator"]).union(["messages"]), "push rejected")
            Self.expectSame(
                Self.paths(rejected.body, under: "messages"),
                Self.paths(
                    try Self.fixture("error-challenge-invalid-passcode.json"), under: "remediation.value[].value[].form.value[].messages"),
                "push rejected message")
        }
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .oktaVerify])) { api in
            try await api.registerActiveUser(email: "plain@example.com")
            let (_, refused) = try await api.passwordAccepted(login: "plain@example.com", pkce: PKCEPair())
            Self.expectSame(
                Set(refused.body.keys), ["stateHandle", "version", "expiresAt", "intent", "messages", "user", "cancel", "app"],
                "no Okta Verify")
        }
    }

    @Test func theSignUpDocumentsHaveTheRecordedKeys() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            let (stateHandle, select) = try await IDXSignUpPolicyTests.profileAccepted(api, email: "new@example.com", pkce: PKCEPair())
            // The recorded select-authenticator-enroll also offers Okta Verify by enrollment channel (QR code,
            // e-mail, SMS), which the sandbox does not.
            let channel = "value[].options[].value.form.value[]"
            Self.expectSame(
                try Self.formPaths(select.body, "select-authenticator-enroll"),
                try Self.formPaths(try Self.fixture("okta-verify-enroll-poll-qrcode.json"), "select-authenticator-enroll"),
                "select-authenticator-enroll",
                ignoring: ["\(channel).options", "\(channel).options[].label", "\(channel).options[].value", "\(channel).type"])

            _ = try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
            let enroll = try await api.idx(
                "credential/enroll", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": stateHandle])
            // Enrolling a code looks like being challenged for one, with `currentAuthenticator` for the
            // enrollment (and no masked address: the user typed it).
            let challenge = try Self.fixture("challenge-email-with-poll-and-resend.json")
            Self.expectSame(
                try Self.formPaths(enroll.body, "enroll-authenticator"), try Self.formPaths(challenge, "challenge-authenticator"),
                "enroll-authenticator (email)")
            Self.expectSame(
                Self.paths(enroll.body, under: "currentAuthenticator.value"),
                Self.paths(challenge, under: "currentAuthenticatorEnrollment.value"), "currentAuthenticator (email)",
                ignoring: ["key", "profile", "profile.email"])

            let code = try #require(try await api.emailedCodes(to: "new@example.com").last)
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            Self.expectSame(
                keyPaths(success.body), keyPaths(try Self.fixture("04-success-with-interaction-code.json")), "sign-up success",
                ignoring: Self.newer.union(IDXFixtureContractTests.newerKeys))
        }
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password], signUp: false)) { api in
            let handle = try await api.interact(pkce: PKCEPair())
            let identify = try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none)
            try IDXFixtureContractTests.expectSameKeys(
                identify, fixture: "02-introspect-identify.json", ignoring: IDXFixtureContractTests.newerKeys)
        }
    }
}

/// The `idx` key of `--config`.
@Suite struct IDXPolicyConfigurationTests {
    static func load(_ json: String) throws -> SandboxConfiguration {
        let url = try SandboxServerTests.write(json)
        defer { try? FileManager.default.removeItem(at: url) }
        return try SandboxConfiguration.load(from: url)
    }

    @Test func thePolicyIsReadWithDefaultsForWhatIsLeftOut() throws {
        #expect(try Self.load("{}").idx == IDXPolicy(authenticators: [.password], signUp: true))
        #expect(
            try Self.load(#"{"idx": {"authenticators": ["password", "email"]}}"#).idx == IDXPolicy(authenticators: [.password, .email]))
        #expect(
            try Self.load(#"{"idx": {"authenticators": ["password", "okta_verify"], "signUp": false}}"#).idx
                == IDXPolicy(authenticators: [.password, .oktaVerify], signUp: false))
        #expect(try Self.load(#"{"idx": {"signUp": false}}"#).idx == IDXPolicy(authenticators: [.password], signUp: false))
    }

    @Test(arguments: [
        (#"{"idx": {"authenticators": ["email"]}}"#, "password must come first"),
        (#"{"idx": {"authenticators": ["email", "password"]}}"#, "password must come first"),
        (#"{"idx": {"authenticators": []}}"#, "password must come first"),
        (#"{"idx": {"authenticators": ["password", "sms"]}}"#, #"unknown authenticator "sms""#),
        (#"{"idx": {"authenticators": ["password", "email", "okta_verify"]}}"#, #"must be ["password"], ["password","email"] or"#),
        (#"{"idx": {"authenticators": ["password", "password"]}}"#, "must be"),
        (#"{"idx": {"signup": false}}"#, "unknown key(s) signup"),
        (#"{"idx": {"signUp": "no"}}"#, "idx.signUp"),
        (#"{"idx": ["password"]}"#, "idx"),
    ])
    func badPoliciesAreRefusedSayingWhatIsAllowed(json: String, expected: String) throws {
        let error = try #require(throws: SandboxConfigurationError.self) { try Self.load(json) }
        #expect(String(describing: error).contains(expected), "\(json): \(error)")
    }

    @Test func theStartUpLineAndInfoShowThePolicy() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            let info = await api.state.info
            #expect(info.idx == IDXPolicy(authenticators: [.password, .email], signUp: true))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let line = String(decoding: try encoder.encode(info), as: UTF8.self)
            // The older shape is shown in the newer one, which reads back as the same policy.
            #expect(
                line.contains(
                    #""idx":{"enroll":{"optional":[],"required":["password","email"]},"numberChallenge":false,"signIn":{"factors":2},"signUp":true}"#
                ), "\(line)")
            let served = try await api.send(.get, "/sandbox/info").object()
            let policy = try #require(served["idx"] as? [String: Any])
            #expect((policy["enroll"] as? [String: Any])?["required"] as? [String] == ["password", "email"])
            #expect((policy["signIn"] as? [String: Any])?["factors"] as? Int == 2)
            #expect(policy["signUp"] as? Bool == true)
        }
    }
}
