import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// The usernameless passkey sign-in at `identify` (`challenge-webauthn-autofillui-authenticator` and the top-level
/// `webauthnAutofillUIChallenge`), passkey promotion, and the `idx.webauthn` settings as the configuration file
/// writes them.
@Suite struct IDXWebAuthnAutofillTests {
    /// interact → introspect: the `identify` document and its state handle.
    static func identifyDocument(_ api: SandboxClient, pkce: PKCEPair) async throws -> (String, IDXDocument) {
        let handle = try await api.interact(pkce: pkce)
        let introspect = try IDXDocument(try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none))
        return (try #require(introspect.stateHandle), introspect)
    }

    static func autofillChallenge(_ document: IDXDocument) throws -> String {
        let value = try #require(document.object("webauthnAutofillUIChallenge"), "\(document.reply.text)")
        return try #require((value["challengeData"] as? [String: Any])?["challenge"] as? String)
    }

    @Test func identifyOffersTheUsernamelessSignInOnlyWhenThePolicyNamesPasskeys() async throws {
        try await withSandbox { api in
            let (_, identify) = try await Self.identifyDocument(api, pkce: PKCEPair())
            #expect(identify.body["webauthnAutofillUIChallenge"] == nil)
            #expect(!identify.remediationNames.contains("challenge-webauthn-autofillui-authenticator"))
        }
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let (stateHandle, identify) = try await Self.identifyDocument(api, pkce: PKCEPair())
            #expect(identify.remediationNames.first == "identify")
            #expect(identify.remediationNames.last == "challenge-webauthn-autofillui-authenticator")
            let form = try #require(identify.form("challenge-webauthn-autofillui-authenticator"))
            #expect((form["href"] as? String)?.hasSuffix("/idp/idx/challenge/answer/webauthn-autofillui") == true)
            #expect(form["relatesTo"] as? [String] == ["webauthnAutofillUIChallenge"])
            #expect(IDXDocument.hiddenStateHandle(form) == stateHandle)
            let data = try #require(identify.object("webauthnAutofillUIChallenge")?["challengeData"] as? [String: Any])
            #expect(data["userVerification"] as? String == "preferred")
            #expect(data["extensions"] as? [String: String] == ["appid": await api.state.orgURL])
        }
    }

    /// A passkey with UV proves possession and the user: with two factors required, it signs in alone.
    @Test(arguments: ["id", "base64", "none"])
    func aUserVerifiedPasskeySignsInWithoutAUsername(userHandle: String) async throws {
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2)) { api in
            let authenticator = TestAuthenticator.es256()
            let userId = try await PasskeyFlow.signedUp(api, email: "nobody@example.com", with: authenticator)
            let pkce = PKCEPair()
            let (stateHandle, identify) = try await Self.identifyDocument(api, pkce: pkce)
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: try Self.autofillChallenge(identify))
            let handle: String? =
                switch userHandle {
                case "id": userId
                case "base64": Data(userId.utf8).base64EncodedString()
                default: nil
                }
            let success = try await api.idx(
                "challenge/answer/webauthn-autofillui",
                PasskeyFlow.assertionBody(authenticator.assertion(ceremony), stateHandle: stateHandle, userHandle: handle))
            #expect(success.status == .ok, "\(success.reply.text)")
            #expect(success.object("user")?["id"] as? String == userId)
            try await api.redeem(success, pkce: pkce)
        }
    }

    /// Without UV the passkey is one factor: with two required, the password is asked next, and the passkey still
    /// counts, so the password finishes the sign-in.
    @Test func aPasskeyWithoutUVIsOneFactorAndThePasswordFollows() async throws {
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2)) { api in
            let authenticator = TestAuthenticator.es256()
            try await PasskeyFlow.signedUp(api, email: "half@example.com", with: authenticator)
            let pkce = PKCEPair()
            let (stateHandle, identify) = try await Self.identifyDocument(api, pkce: pkce)
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: try Self.autofillChallenge(identify), flags: 0x01)
            let password = try await api.idx(
                "challenge/answer/webauthn-autofillui",
                PasskeyFlow.assertionBody(authenticator.assertion(ceremony), stateHandle: stateHandle))
            #expect(password.status == .ok, "\(password.reply.text)")
            #expect(password.remediationNames.first == "challenge-authenticator")
            #expect(password.object("currentAuthenticatorEnrollment")?["type"] as? String == "password")
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": "Sunny-Meadow-42"], "stateHandle": stateHandle])
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func aRefusedUsernamelessAssertionGivesIdentifyAgainWithANewChallenge() async throws {
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let authenticator = TestAuthenticator.es256()
            let userId = try await PasskeyFlow.signedUp(api, email: "again@example.com", with: authenticator)
            let (stateHandle, identify) = try await Self.identifyDocument(api, pkce: PKCEPair())
            let issued = try Self.autofillChallenge(identify)
            var ceremony = try await PasskeyFlow.ceremony(api, challenge: issued)
            ceremony.origin = "https://evil.example"
            let refused = try await api.idx(
                "challenge/answer/webauthn-autofillui",
                PasskeyFlow.assertionBody(authenticator.assertion(ceremony), stateHandle: stateHandle, userHandle: userId))
            #expect(refused.status == .badRequest)
            #expect(refused.messageKeys == [IDXWebAuthnSignInTests.assertionFailure])
            #expect(refused.remediationNames.contains("challenge-webauthn-autofillui-authenticator"))
            let fresh = try Self.autofillChallenge(refused)
            #expect(fresh != issued, "a challenge is answered once")
            // An unknown user handle finds no passkey.
            let unknown = try await api.idx(
                "challenge/answer/webauthn-autofillui",
                PasskeyFlow.assertionBody(
                    authenticator.assertion(try await PasskeyFlow.ceremony(api, challenge: fresh)), stateHandle: stateHandle,
                    userHandle: "00unobody"))
            #expect(unknown.status == .badRequest && unknown.messageKeys == [IDXWebAuthnSignInTests.assertionFailure])
        }
    }

    // MARK: Promotion

    static var promotion: (inout SandboxConfiguration) -> Void {
        PasskeyFlow.configure(required: [.password], optional: [.webAuthn], settings: WebAuthnPolicy(promotion: true))
    }

    /// Password sign-in of a user without a passkey; returns the state handle and the promotion document.
    static func promoted(_ api: SandboxClient, login: String, pkce: PKCEPair) async throws -> (String, IDXDocument) {
        let (stateHandle, promotion) = try await api.passwordAccepted(login: login, pkce: pkce)
        #expect(promotion.status == .ok, "\(promotion.reply.text)")
        #expect(promotion.remediationNames == ["enroll-authenticator-promotion", "skip"])
        #expect(promotion.interactionCode == nil)
        return (stateHandle, promotion)
    }

    @Test func promotionCanBeSkipped() async throws {
        try await withSandbox(configure: Self.promotion) { api in
            try await api.registerActiveUser(email: "later@example.com")
            let pkce = PKCEPair()
            let (stateHandle, promotion) = try await Self.promoted(api, login: "later@example.com", pkce: pkce)
            let form = try #require(promotion.form("enroll-authenticator-promotion"))
            #expect((form["href"] as? String)?.hasSuffix("/idp/idx/credential/enroll") == true)
            #expect(promotion.object("currentAuthenticator")?["displayName"] as? String == "Passkeys")
            let success = try await api.idx("skip", ["stateHandle": stateHandle])
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)
            #expect(try await api.authenticators(of: "later@example.com")["webauthn"] == nil)
        }
    }

    @Test func promotionEnrollsAPasskeyAndIsNotOfferedAgain() async throws {
        try await withSandbox(configure: Self.promotion) { api in
            let (userId, _) = try await api.registerActiveUser(email: "now@example.com")
            let pkce = PKCEPair()
            let (stateHandle, promotion) = try await Self.promoted(api, login: "now@example.com", pkce: pkce)
            let activation = try PasskeyFlow.contextual(promotion, "activationData")
            #expect((activation["user"] as? [String: String])?["id"] == userId)
            let authenticator = TestAuthenticator.es256()
            var ceremony = try await PasskeyFlow.ceremony(api, challenge: activation["challenge"])
            ceremony.challenge = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            let refused = try await api.idx(
                "credential/enroll", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(refused.status == .badRequest)
            #expect(refused.remediationNames == ["enroll-authenticator-promotion", "skip"])
            ceremony.challenge = try #require(activation["challenge"] as? String)
            let success = try await api.idx(
                "credential/enroll", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)
            #expect(try await api.authenticators(of: "now@example.com")["webauthn"] != nil)

            let again = try await api.passwordAccepted(login: "now@example.com", pkce: PKCEPair()).document
            #expect(again.interactionCode != nil, "a user with a passkey is not nudged: \(again.reply.text)")
        }
    }

    // MARK: Configuration

    @Test func theSettingsAreReadFromTheConfigurationFile() throws {
        let policy = try IDXPolicyShapeTests.load(
            #"""
            {"idx": {"enroll": {"required": ["password"], "optional": ["webauthn"]}, "webauthn": {"userVerification": "required",
             "allowedAAGUIDs": ["FBFC3007-154E-4ECC-8C0B-6E020557D7BD"], "promotion": true, "rpId": "example.com"}}}
            """#)
        #expect(policy.optional == [.webAuthn])
        #expect(
            policy.webAuthn
                == WebAuthnPolicy(
                    userVerification: .required, allowedAAGUIDs: [UUID(uuidString: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")!],
                    promotion: true, rpId: "example.com"))
        #expect(try JSONDecoder().decode(IDXPolicy.self, from: try JSONEncoder().encode(policy)) == policy)
        #expect(try IDXPolicyShapeTests.load(#"{"idx": {}}"#).webAuthn == WebAuthnPolicy(), "defaults: preferred, any model, no promotion")
    }

    /// The example in docs/sandbox.md ("Passkeys in the Identity Engine") is a configuration the sandbox accepts.
    @Test func theDocumentedExampleIsAValidConfiguration() throws {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/sandbox.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### Passkeys in the Identity Engine").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let policy = try IDXPolicyConfigurationTests.load(block).idx
        #expect(policy.optional == [.webAuthn] && policy.webAuthn.promotion && policy.webAuthn.userVerification == .required)
    }

    @Test(arguments: [
        (#"{"idx": {"webauthn": {"userVerification": "always"}}}"#, "not required, preferred or discouraged"),
        (#"{"idx": {"webauthn": {"allowedAAGUIDs": ["yubikey"]}}}"#, #""yubikey" is not a UUID"#),
        (#"{"idx": {"webauthn": {"residentKey": true}}}"#, "unknown key(s) residentKey"),
        (#"{"idx": {"webauthn": {"promotion": true}}}"#, "idx.webauthn.promotion"),
        (#"{"idx": {"webauthn": {"rpId": "https://example.com"}}}"#, "idx.webauthn.rpId"),
    ])
    func badSettingsAreRefusedSayingWhatIsAllowed(json: String, expected: String) throws {
        let error = try #require(throws: SandboxConfigurationError.self) { try IDXPolicyConfigurationTests.load(json) }
        #expect(String(describing: error).contains(expected), "\(json): \(error)")
    }
}
