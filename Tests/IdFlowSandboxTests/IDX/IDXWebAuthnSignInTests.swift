import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// Signing in with a passkey in the Identity Engine (issue 42): as the second factor (`challenge-authenticator` with
/// `challengeData`), without a username (`challenge-webauthn-autofillui-authenticator`), and passkey promotion. Every
/// assertion is verified for real: the signature with each of the user's passkeys in turn, the origin, the challenge,
/// the RP ID, UP and UV, and a sign count that must go up.
@Suite struct IDXWebAuthnSignInTests {
    static let assertionFailure = "authfactor.webauthn.error.assertion_validation_failure"

    /// Signs in with the password and chooses passkeys; returns the state handle and the passkey challenge.
    static func passkeyChallenge(_ api: SandboxClient, login: String, pkce: PKCEPair) async throws -> (String, IDXDocument) {
        let (stateHandle, select) = try await api.passwordAccepted(login: login, password: "Sunny-Meadow-42", pkce: pkce)
        #expect(select.remediationNames == ["select-authenticator-authenticate"], "\(select.reply.text)")
        let option = try #require(select.authenticatorOptions("select-authenticator-authenticate").first)
        #expect(option.values == ["id": PasskeyFlow.authenticatorID, "methodType": "webauthn"])
        #expect(option.relatesTo == "$.authenticators.value[0]")
        let challenge = try await api.idx("challenge", ["authenticator": option.values, "stateHandle": stateHandle])
        #expect(challenge.status == .ok, "\(challenge.reply.text)")
        return (stateHandle, challenge)
    }

    @Test func thePasskeyIsTheSecondFactorAsRecorded() async throws {
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2)) { api in
            let authenticator = TestAuthenticator.es256()
            try await PasskeyFlow.signedUp(api, email: "two@example.com", with: authenticator)
            let pkce = PKCEPair()
            let (stateHandle, challenge) = try await Self.passkeyChallenge(api, login: "two@example.com", pkce: pkce)
            #expect(challenge.remediationNames == ["challenge-authenticator"])
            let data = try PasskeyFlow.contextual(challenge, "challengeData")
            let orgURL = await api.state.orgURL
            #expect(data["userVerification"] as? String == "preferred")
            #expect(data["extensions"] as? [String: String] == ["appid": orgURL])
            #expect(data["rpId"] == nil)
            let enrollment = try #require(challenge.list("authenticatorEnrollments").first)
            #expect(enrollment["credentialId"] as? String == WebAuthnBase64.encodeURL(authenticator.credentialId))
            #expect((enrollment["profile"] as? [String: String])?["aaguid"] == "00000000-0000-0000-0000-000000000000")

            let ceremony = try await PasskeyFlow.ceremony(api, challenge: data["challenge"])
            let success = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(authenticator.assertion(ceremony), stateHandle: stateHandle))
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)
            #expect(try await api.authenticators(of: "two@example.com")["webauthn"]?["signCount"] as? Int == 1)
        }
    }

    @Test func eachOfTheUsersPasskeysIsTriedSinceTheAssertionNamesNone() async throws {
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2)) { api in
            let first = TestAuthenticator.es256(credentialId: Array(0..<16))
            let userId = try await PasskeyFlow.signedUp(api, email: "many@example.com", with: first)
            // A second passkey for the same user, registered directly.
            let second = TestAuthenticator.es256(credentialId: Array(50..<66))
            let origin = await api.state.orgURL
            let rpId = try #require(URLComponents(string: origin)?.host)
            let registration = second.registration(.init(challenge: "AAAA", origin: origin, rpId: rpId))
            let credential = try WebAuthnRegistrationVerifier(ceremony: WebAuthnCeremony(challenge: "AAAA", origin: origin, rpId: rpId))
                .verify(
                    clientData: registration.clientData, attestation: registration.attestation, userId: userId, now: api.state.clock.now)
            try await api.state.addWebAuthnCredential(credential)

            let pkce = PKCEPair()
            let (stateHandle, challenge) = try await Self.passkeyChallenge(api, login: "many@example.com", pkce: pkce)
            #expect(challenge.list("authenticatorEnrollments").compactMap { $0["credentialId"] as? String }.count == 2)
            let ceremony = try await PasskeyFlow.ceremony(
                api, challenge: try PasskeyFlow.contextual(challenge, "challengeData")["challenge"])
            let success = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(second.assertion(ceremony), stateHandle: stateHandle))
            #expect(success.status == .ok, "\(success.reply.text)")
        }
    }

    /// A wrong origin, challenge or RP ID, a missing UP, or a key the user never registered: the recorded message and
    /// the same challenge again, which the right assertion still answers.
    @Test(arguments: ["origin", "challenge", "rpId", "up", "stranger"])
    func aBrokenAssertionGetsTheRecordedMessageAndTheSameRemediation(broken: String) async throws {
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2)) { api in
            let authenticator = TestAuthenticator.es256()
            try await PasskeyFlow.signedUp(api, email: "broken@example.com", with: authenticator)
            let (stateHandle, challenge) = try await Self.passkeyChallenge(api, login: "broken@example.com", pkce: PKCEPair())
            let issued = try PasskeyFlow.contextual(challenge, "challengeData")["challenge"]
            var ceremony = try await PasskeyFlow.ceremony(api, challenge: issued)
            var signer = authenticator
            switch broken {
            case "origin": ceremony.origin = "https://evil.example"
            case "challenge": ceremony.challenge = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            case "rpId": ceremony.rpId = "evil.example"
            case "up": ceremony.flags = 0x04
            default: signer = TestAuthenticator.es256()
            }
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(signer.assertion(ceremony), stateHandle: stateHandle))
            #expect(refused.status == .badRequest)
            #expect(refused.remediationNames == ["challenge-authenticator"])
            #expect(refused.messageKeys == [Self.assertionFailure])
            #expect(
                refused.messageTexts == ["None of the WebAuthn authenticators the user has enrolled for was able to validate the assertion"]
            )
            #expect(try PasskeyFlow.contextual(refused, "challengeData")["challenge"] as? String == issued as? String)

            let right = try await PasskeyFlow.ceremony(api, challenge: issued)
            let success = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(authenticator.assertion(right), stateHandle: stateHandle))
            #expect(success.status == .ok, "\(success.reply.text)")
        }
    }

    @Test func userVerificationRequiredRefusesAnAssertionWithoutUV() async throws {
        let settings = WebAuthnPolicy(userVerification: .required)
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2, settings: settings)) { api in
            let authenticator = TestAuthenticator.es256()
            try await PasskeyFlow.signedUp(api, email: "pin@example.com", with: authenticator)
            let (stateHandle, challenge) = try await Self.passkeyChallenge(api, login: "pin@example.com", pkce: PKCEPair())
            let data = try PasskeyFlow.contextual(challenge, "challengeData")
            #expect(data["userVerification"] as? String == "required")
            let presentOnly = try await PasskeyFlow.ceremony(api, challenge: data["challenge"], flags: 0x01)
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(authenticator.assertion(presentOnly), stateHandle: stateHandle))
            #expect(refused.status == .badRequest && refused.messageKeys == [Self.assertionFailure])
            let verified = try await PasskeyFlow.ceremony(api, challenge: data["challenge"])
            let success = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(authenticator.assertion(verified), stateHandle: stateHandle))
            #expect(success.status == .ok, "\(success.reply.text)")
        }
    }

    /// A copied credential: both copies sign; once the original has moved the counter on, the copy's lower count is
    /// refused, which is how a server catches a cloned authenticator.
    @Test func aCopiedCredentialWhoseCountWentBackwardsIsRefused() async throws {
        try await withSandbox(configure: PasskeyFlow.configure(factors: 2)) { api in
            let original = TestAuthenticator.es256()
            try await PasskeyFlow.signedUp(api, email: "clone@example.com", with: original)
            let copy = original.cloned()
            for _ in 0..<2 {
                let pkce = PKCEPair()
                let (stateHandle, challenge) = try await Self.passkeyChallenge(api, login: "clone@example.com", pkce: pkce)
                let ceremony = try await PasskeyFlow.ceremony(
                    api, challenge: try PasskeyFlow.contextual(challenge, "challengeData")["challenge"])
                let success = try await api.idx(
                    "challenge/answer", PasskeyFlow.assertionBody(original.assertion(ceremony), stateHandle: stateHandle))
                #expect(success.status == .ok, "\(success.reply.text)")
            }
            let (stateHandle, challenge) = try await Self.passkeyChallenge(api, login: "clone@example.com", pkce: PKCEPair())
            let ceremony = try await PasskeyFlow.ceremony(
                api, challenge: try PasskeyFlow.contextual(challenge, "challengeData")["challenge"])
            let refused = try await api.idx(
                "challenge/answer", PasskeyFlow.assertionBody(copy.assertion(ceremony), stateHandle: stateHandle))
            #expect(refused.status == .badRequest && refused.messageKeys == [Self.assertionFailure])
            #expect(try await api.authenticators(of: "clone@example.com")["webauthn"]?["signCount"] as? Int == 2)
        }
    }
}
