import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// The sandbox's checks of a passkey sign-in: the signature against the user's stored keys (found without a
/// credential id, as Okta's Identity Engine posts none), the counter that catches a copied credential, and the
/// client data and flags.
@Suite struct WebAuthnAssertionVerifierTests {
    typealias Registration = WebAuthnRegistrationVerifierTests

    static func verifier(_ userVerification: WebAuthnUserVerification = .preferred) -> WebAuthnAssertionVerifier {
        WebAuthnAssertionVerifier(
            ceremony: WebAuthnCeremony(
                challenge: Registration.challenge, origin: Registration.origin, rpId: Registration.rpId, userVerification: userVerification)
        )
    }

    /// An authenticator and the credential the sandbox registered for it.
    static func registered(_ authenticator: TestAuthenticator = .es256()) throws -> (TestAuthenticator, WebAuthnCredential) {
        (authenticator, try Registration.register(authenticator.registration(Registration.good)))
    }

    static func verify(
        _ assertion: TestAuthenticator.Assertion, _ credentials: [WebAuthnCredential], verifier: WebAuthnAssertionVerifier = verifier()
    ) throws(WebAuthnFailure) -> WebAuthnAssertionVerifier.Verified {
        try verifier.verify(
            clientData: assertion.clientData, authenticatorData: assertion.authData, signature: assertion.signatureData,
            credentials: credentials)
    }

    @Test func aGoodAssertionPassesAndRaisesTheCount() throws {
        let (authenticator, credential) = try Self.registered()
        let verified = try Self.verify(authenticator.assertion(Registration.good), [credential])
        #expect(verified.credential.credentialId == credential.credentialId)
        #expect(verified.newSignCount == 1)
        #expect(credential.signCount == 0)
    }

    @Test func theSameAssertionReplayedIsRefusedAsAClone() throws {
        let (authenticator, registered) = try Self.registered()
        var credential = registered
        let assertion = authenticator.assertion(Registration.good)
        credential = try Self.verify(assertion, [credential]).credential
        #expect(throws: WebAuthnFailure.signCountNotIncreased(stored: 1, received: 1)) { try Self.verify(assertion, [credential]) }
    }

    @Test func aCounterThatWentBackIsRefused() throws {
        let (authenticator, registered) = try Self.registered()
        var credential = registered
        let copy = authenticator.cloned()
        for _ in 0..<3 { credential = try Self.verify(authenticator.assertion(Registration.good), [credential]).credential }
        let error = #expect(throws: WebAuthnFailure.signCountNotIncreased(stored: 3, received: 1)) {
            try Self.verify(copy.assertion(Registration.good), [credential])
        }
        #expect(error?.reason.contains("cloned") == true)
    }

    @Test func aCounterlessPasskeyMayAlwaysSendZero() throws {
        let (authenticator, registered) = try Self.registered()
        var credential = registered
        for _ in 0..<2 {
            credential = try Self.verify(authenticator.assertion(Registration.good, counterless: true), [credential]).credential
            #expect(credential.signCount == 0)
        }
    }

    @Test func aWrongSignatureIsRefused() throws {
        let (authenticator, credential) = try Self.registered()
        let assertion = authenticator.assertion(Registration.good)
        var signature = assertion.signature
        signature[signature.count - 1] ^= 0x01
        let forged = TestAuthenticator.Assertion(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: signature)
        #expect(throws: WebAuthnFailure.signatureInvalid) { try Self.verify(forged, [credential]) }
        let stranger = TestAuthenticator.es256(credentialId: authenticator.credentialId)
        #expect(throws: WebAuthnFailure.signatureInvalid) { try Self.verify(stranger.assertion(Registration.good), [credential]) }
    }

    @Test func eachOfTheUsersCredentialsIsTriedWithoutAnId() throws {
        let (_, first) = try Self.registered(.es256(credentialId: Array(repeating: 1, count: 16)))
        let (second, secondCredential) = try Self.registered(.es256(credentialId: Array(repeating: 2, count: 16)))
        let verified = try Self.verify(second.assertion(Registration.good), [first, secondCredential])
        #expect(verified.credential.credentialId == secondCredential.credentialId)
    }

    @Test func aNamedCredentialMustBeTheUsers() throws {
        let (authenticator, credential) = try Self.registered()
        let assertion = authenticator.assertion(Registration.good)
        #expect(throws: WebAuthnFailure.unknownCredential) {
            try Self.verifier().verify(
                clientData: assertion.clientData, authenticatorData: assertion.authData, signature: assertion.signatureData,
                credentialId: base64URL(Data([9, 9, 9])), credentials: [credential])
        }
        let verified = try Self.verifier().verify(
            clientData: assertion.clientData, authenticatorData: assertion.authData, signature: assertion.signatureData,
            credentialId: credential.credentialIdText, credentials: [credential])
        #expect(verified.newSignCount == 1)
    }

    @Test func aUserWithoutPasskeysIsRefused() throws {
        let authenticator = TestAuthenticator.es256()
        #expect(throws: WebAuthnFailure.noCredentials) { try Self.verify(authenticator.assertion(Registration.good), []) }
    }

    @Test func anRS256CredentialVerifies() throws {
        let (authenticator, credential) = try Self.registered(try .rs256())
        let verified = try Self.verify(authenticator.assertion(Registration.good), [credential])
        #expect(verified.credential.publicKey.name == "RS256")
        #expect(verified.newSignCount == 1)
    }

    @Test func base64URLAndStandardBase64AreBothAccepted() throws {
        let (authenticator, registered) = try Self.registered()
        var credential = registered
        let padded = authenticator.assertion(Registration.good)
        credential = try Self.verify(padded, [credential]).credential
        let url = authenticator.assertion(Registration.good)
        let verified = try Self.verifier().verify(
            clientData: base64URL(Data(url.clientDataJSON)), authenticatorData: base64URL(Data(url.authenticatorData)),
            signature: base64URL(Data(url.signature)), credentials: [credential])
        #expect(verified.newSignCount == 2)
    }

    @Test func theClientDataAndFlagsAreChecked() throws {
        let (authenticator, registered) = try Self.registered()
        var credential = registered
        var ceremony = Registration.good
        ceremony.type = "webauthn.create"
        #expect(throws: WebAuthnFailure.wrongType(expected: "webauthn.get", received: "webauthn.create")) {
            try Self.verify(authenticator.assertion(ceremony), [credential])
        }
        ceremony = Registration.good
        ceremony.challenge = base64URL(Data([1, 2, 3]))
        #expect(throws: WebAuthnFailure.challengeMismatch) { try Self.verify(authenticator.assertion(ceremony), [credential]) }
        ceremony = Registration.good
        ceremony.origin = "https://evil.example"
        #expect(throws: WebAuthnFailure.originMismatch(expected: Registration.origin, received: "https://evil.example")) {
            try Self.verify(authenticator.assertion(ceremony), [credential])
        }
        ceremony = Registration.good
        ceremony.rpId = "evil.example"
        #expect(throws: WebAuthnFailure.rpIdHashMismatch(rpId: Registration.rpId)) {
            try Self.verify(authenticator.assertion(ceremony), [credential])
        }
        ceremony = Registration.good
        ceremony.flags = 0x04
        #expect(throws: WebAuthnFailure.userNotPresent) { try Self.verify(authenticator.assertion(ceremony), [credential]) }
        ceremony.flags = 0x01
        #expect(throws: WebAuthnFailure.userNotVerified) {
            try Self.verify(authenticator.assertion(ceremony), [credential], verifier: Self.verifier(.required))
        }
        credential = try Self.verify(authenticator.assertion(ceremony), [credential]).credential
        #expect(credential.signCount == authenticator.signCount)
    }

    @Test func backupEligibilityMayNotChange() throws {
        let (authenticator, credential) = try Self.registered()
        var ceremony = Registration.good
        ceremony.flags = 0x0D  // UP|UV|BE
        #expect(throws: WebAuthnFailure.backupEligibilityChanged) { try Self.verify(authenticator.assertion(ceremony), [credential]) }
    }

    @Test func everyAssertionFailureIsShownAsOktaRecordedIt() throws {
        let recorded = try Fixtures.object("okta-webauthn/widget-error-authenticator-webauthn-failure.json")
        let message = try #require(((recorded["messages"] as? [String: Any])?["value"] as? [[String: Any]])?.first)
        let key = (message["i18n"] as? [String: Any])?["key"] as? String
        for failure in [WebAuthnFailure.signatureInvalid, .signCountNotIncreased(stored: 3, received: 1), .noCredentials, .userNotVerified]
        {
            let shown = failure.idxMessage(for: .assertion)
            #expect(shown.i18nKey == key)
            #expect(shown.message == message["message"] as? String)
        }
        #expect(WebAuthnFailure.signatureInvalid.directAuthError.error == "invalid_grant")
        #expect(WebAuthnFailure.signatureInvalid.directAuthError.description == message["message"] as? String)
        #expect(WebAuthnFailure.clientDataUnreadable.directAuthError.error == "invalid_request")
    }
}
