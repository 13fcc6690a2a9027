import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// What a passkey test reads from an IDX document and answers it with.
enum PasskeyFlow {
    static let authenticatorID = "autidflowwebauthn000"

    static func configure(
        required: [IDXPolicy.Authenticator] = [.password, .webAuthn], optional: [IDXPolicy.Authenticator] = [], factors: Int = 1,
        settings: WebAuthnPolicy = WebAuthnPolicy()
    ) -> (inout SandboxConfiguration) -> Void {
        {
            $0.idx = IDXPolicy(required: required, optional: optional, factors: factors)
            $0.idx.webAuthn = settings
        }
    }

    /// `currentAuthenticator.value.contextualData.<name>` (`activationData` or `challengeData`).
    static func contextual(_ document: IDXDocument, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: Any]
    {
        let current = try #require(document.object("currentAuthenticator"), "\(document.reply.text)", sourceLocation: sourceLocation)
        return try #require((current["contextualData"] as? [String: Any])?[name] as? [String: Any], sourceLocation: sourceLocation)
    }

    /// The ceremony a client that talked to the sandbox would sign: its origin and host, the document's challenge.
    static func ceremony(_ api: SandboxClient, challenge: Any?, flags: UInt8 = 0x05) async throws -> TestAuthenticator.Ceremony {
        let origin = await api.state.orgURL
        let host = try #require(URLComponents(string: origin)?.host)
        return TestAuthenticator.Ceremony(challenge: try #require(challenge as? String), origin: origin, rpId: host, flags: flags)
    }

    static func registrationBody(_ registration: TestAuthenticator.Registration, stateHandle: String) -> [String: Any] {
        ["credentials": ["clientData": registration.clientData, "attestation": registration.attestation], "stateHandle": stateHandle]
    }

    static func assertionBody(_ assertion: TestAuthenticator.Assertion, stateHandle: String, userHandle: String? = nil) -> [String: Any] {
        var credentials = [
            "clientData": assertion.clientData, "authenticatorData": assertion.authData, "signatureData": assertion.signatureData,
        ]
        if let userHandle { credentials["userHandle"] = userHandle }
        return ["credentials": credentials, "stateHandle": stateHandle]
    }

    /// Sign-up through the password up to the passkey's `enroll-authenticator`; returns the state handle and it.
    static func signUpToPasskey(_ api: SandboxClient, email: String, pkce: PKCEPair) async throws -> (String, IDXDocument) {
        let (stateHandle, select) = try await IDXSignUpPolicyTests.profileAccepted(api, email: email, pkce: pkce)
        #expect(IDXAuthenticatorTests.enrollOptions(select).contains(authenticatorID), "passkeys offered: \(select.reply.text)")
        _ = try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
        let enroll = try await api.idx("credential/enroll", ["authenticator": ["id": authenticatorID], "stateHandle": stateHandle])
        #expect(enroll.status == .ok, "\(enroll.reply.text)")
        return (stateHandle, enroll)
    }

    /// A user signed up with `authenticator`'s passkey (sign-up's `webauthn` required); returns the user id.
    @discardableResult
    static func signedUp(_ api: SandboxClient, email: String, with authenticator: TestAuthenticator) async throws -> String {
        let pkce = PKCEPair()
        let (stateHandle, enroll) = try await signUpToPasskey(api, email: email, pkce: pkce)
        let ceremony = try await ceremony(api, challenge: try contextual(enroll, "activationData")["challenge"])
        let done = try await api.idx("challenge/answer", registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
        #expect(done.status == .ok, "\(done.reply.text)")
        try await api.redeem(done, pkce: pkce)
        return try #require(done.object("user")?["id"] as? String)
    }
}

/// Enrolling a passkey in the Identity Engine (issue 42): the documents as recorded, and a registration verified for
/// real, so a client that signs for another origin, answers another challenge or comes from a refused model fails here
/// as it would at Okta.
@Suite struct IDXWebAuthnEnrollTests {
    @Test func aSignUpEnrollsAPasskeyFromTheRecordedActivationData() async throws {
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let pkce = PKCEPair()
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "pia@example.com", pkce: pkce)
            #expect(enroll.remediationNames == ["enroll-authenticator", "select-authenticator-enroll"])
            let current = try #require(enroll.object("currentAuthenticator"))
            #expect(current["key"] as? String == "webauthn" && current["type"] as? String == "security_key")
            #expect(current["displayName"] as? String == "Passkeys")
            let activation = try PasskeyFlow.contextual(enroll, "activationData")
            let orgURL = await api.state.orgURL
            #expect(activation["rp"] as? [String: String] == ["name": "idflow sandbox"], "no rp.id: the client derives it")
            let user = try #require(activation["user"] as? [String: String])
            #expect(user["name"] == "pia@example.com" && user["displayName"] == "New User")
            #expect((activation["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -257])
            #expect(activation["attestation"] as? String == "direct")
            #expect((activation["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "preferred")
            #expect((activation["u2fParams"] as? [String: String])?["appid"] == orgURL)
            #expect((activation["excludeCredentials"] as? [Any])?.isEmpty == true)
            let challenge = try #require(activation["challenge"] as? String)
            #expect(WebAuthnBase64.decode(challenge)?.count == 24 && !challenge.contains("="))

            let authenticator = TestAuthenticator.es256()
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: challenge)
            let done = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(done.status == .ok, "\(done.reply.text)")
            try await api.redeem(done, pkce: pkce)
            // The passkey's user handle is the new user's id, so a usernameless sign-in finds the user.
            #expect(done.object("user")?["id"] as? String == user["id"])
            let passkey = try #require(try await api.authenticators(of: "pia@example.com")["webauthn"])
            #expect(passkey["credentialId"] as? String == WebAuthnBase64.encodeURL(authenticator.credentialId))
            #expect(passkey["algorithm"] as? String == "ES256" && passkey["attestation"] as? String == "none")
        }
    }

    @Test func packedSelfAttestationAndAnRSAKeyAreAccepted() async throws {
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "rsa@example.com", pkce: PKCEPair())
            let authenticator = try TestAuthenticator.rs256()
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: try PasskeyFlow.contextual(enroll, "activationData")["challenge"])
            let done = try await api.idx(
                "challenge/answer",
                PasskeyFlow.registrationBody(authenticator.registration(ceremony, format: "packed"), stateHandle: stateHandle))
            #expect(done.status == .ok, "\(done.reply.text)")
            let passkey = try #require(try await api.authenticators(of: "rsa@example.com")["webauthn"])
            #expect(passkey["algorithm"] as? String == "RS256" && passkey["attestation"] as? String == "packed")
        }
    }

    /// Each broken registration is refused (400) with the step as it was, the reason at the top, and nothing stored.
    @Test(arguments: ["origin", "challenge", "rpId", "type"])
    func aRegistrationMadeForAnythingElseIsRefused(broken: String) async throws {
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "bad@example.com", pkce: PKCEPair())
            var ceremony = try await PasskeyFlow.ceremony(
                api, challenge: try PasskeyFlow.contextual(enroll, "activationData")["challenge"])
            switch broken {
            case "origin": ceremony.origin = "https://evil.example"
            case "challenge": ceremony.challenge = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            case "rpId": ceremony.rpId = "evil.example"
            default: ceremony.type = "webauthn.get"
            }
            let authenticator = TestAuthenticator.es256()
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(refused.status == .badRequest)
            #expect(refused.remediationNames == ["enroll-authenticator", "select-authenticator-enroll"])
            #expect(refused.messageKeys == ["idflow.sandbox.webauthn.registrationRefused"])
            #expect(refused.messageTexts.first?.contains(broken == "type" ? "type" : broken == "rpId" ? "rpIdHash" : broken) == true)
            // The same challenge still works.
            let fixed = try await PasskeyFlow.ceremony(api, challenge: try PasskeyFlow.contextual(enroll, "activationData")["challenge"])
            let done = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(fixed), stateHandle: stateHandle))
            #expect(done.status == .ok, "\(done.reply.text)")
        }
    }

    @Test func userVerificationRequiredRefusesAPasskeyWithoutUV() async throws {
        try await withSandbox(configure: PasskeyFlow.configure(settings: WebAuthnPolicy(userVerification: .required))) { api in
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "uv@example.com", pkce: PKCEPair())
            let activation = try PasskeyFlow.contextual(enroll, "activationData")
            #expect((activation["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "required")
            let authenticator = TestAuthenticator.es256()
            let presentOnly = try await PasskeyFlow.ceremony(api, challenge: activation["challenge"], flags: 0x01)
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(presentOnly), stateHandle: stateHandle))
            #expect(refused.status == .badRequest)
            #expect(refused.messageTexts.first?.contains("UV") == true, "\(refused.messageTexts)")
            let verified = try await PasskeyFlow.ceremony(api, challenge: activation["challenge"], flags: 0x05)
            let done = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(verified), stateHandle: stateHandle))
            #expect(done.status == .ok, "\(done.reply.text)")
        }
    }

    @Test func anAuthenticatorModelOffTheAllowListIsRefusedNamingItsAAGUID() async throws {
        let allowed = UUID(uuidString: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")!
        try await withSandbox(configure: PasskeyFlow.configure(settings: WebAuthnPolicy(allowedAAGUIDs: [allowed]))) { api in
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "model@example.com", pkce: PKCEPair())
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: try PasskeyFlow.contextual(enroll, "activationData")["challenge"])
            let authenticator = TestAuthenticator.es256()
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(refused.status == .badRequest)
            #expect(refused.messageKeys == ["idflow.sandbox.webauthn.aaguidNotAllowed"])
            let text = try #require(refused.messageTexts.first)
            #expect(text.contains("AAGUID 00000000-0000-0000-0000-000000000000") && text.contains("not allowed"), "\(text)")
            let message = try #require((refused.body["messages"] as? [String: Any])?["value"] as? [[String: Any]]).first
            #expect((message?["i18n"] as? [String: Any])?["params"] as? [String] == ["00000000-0000-0000-0000-000000000000"])
            #expect(message?["class"] as? String == "ERROR")

            authenticator.aaguid = withUnsafeBytes(of: allowed.uuid, Array.init)
            let done = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(done.status == .ok, "\(done.reply.text)")
            #expect(
                try await api.authenticators(of: "model@example.com")["webauthn"]?["aaguid"] as? String == allowed.uuidString.lowercased())
        }
    }

    @Test func aCustomRPIDIsSentAndTheAuthenticatorDataMustBeMadeForIt() async throws {
        try await withSandbox(configure: PasskeyFlow.configure(settings: WebAuthnPolicy(rpId: "sandbox.example"))) { api in
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "rp@example.com", pkce: PKCEPair())
            let activation = try PasskeyFlow.contextual(enroll, "activationData")
            #expect(activation["rp"] as? [String: String] == ["name": "idflow sandbox", "id": "sandbox.example"])
            var ceremony = try await PasskeyFlow.ceremony(api, challenge: activation["challenge"])
            let authenticator = TestAuthenticator.es256()
            let hostMade = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(hostMade.status == .badRequest)
            ceremony.rpId = "sandbox.example"
            let done = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(done.status == .ok, "\(done.reply.text)")
        }
    }

    @Test func aUserWithoutTheRequiredPasskeyEnrollsOneAtSignInExcludingNothing() async throws {
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let (userId, _) = try await api.registerActiveUser(email: "old@example.com")
            let pkce = PKCEPair()
            let (stateHandle, select) = try await api.passwordAccepted(login: "old@example.com", pkce: pkce)
            #expect(select.remediationNames == ["select-authenticator-enroll"], "\(select.reply.text)")
            let enroll = try await api.idx(
                "credential/enroll", ["authenticator": ["id": PasskeyFlow.authenticatorID], "stateHandle": stateHandle])
            let activation = try PasskeyFlow.contextual(enroll, "activationData")
            #expect((activation["user"] as? [String: String])?["id"] == userId)
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: activation["challenge"])
            let done = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(TestAuthenticator.es256().registration(ceremony), stateHandle: stateHandle)
            )
            #expect(done.status == .ok, "\(done.reply.text)")
            try await api.redeem(done, pkce: pkce)
        }
    }

    @Test func theSameCredentialCannotBeRegisteredTwice() async throws {
        try await withSandbox(configure: PasskeyFlow.configure()) { api in
            let authenticator = TestAuthenticator.es256()
            try await PasskeyFlow.signedUp(api, email: "first@example.com", with: authenticator)
            let (stateHandle, enroll) = try await PasskeyFlow.signUpToPasskey(api, email: "second@example.com", pkce: PKCEPair())
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: try PasskeyFlow.contextual(enroll, "activationData")["challenge"])
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            #expect(refused.status == .badRequest)
            #expect(refused.messageTexts.first?.contains("registered already") == true)
        }
    }
}
