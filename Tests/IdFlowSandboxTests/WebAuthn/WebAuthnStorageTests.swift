import Foundation
import Testing

@testable import IdFlowSandbox

/// The passkeys the sandbox keeps per user: added once, found by user or by id, and their counter moved forward by
/// each verified sign-in, so a copy of the credential that signs later with an old counter is caught.
@Suite struct WebAuthnStorageTests {
    typealias Registration = WebAuthnRegistrationVerifierTests

    @Test func aPasskeyIsKeptFoundAndItsCounterMovesOn() async throws {
        let state = SandboxState()
        let authenticator = TestAuthenticator.es256()
        let copy = authenticator.cloned()
        let credential = try Registration.register(authenticator.registration(Registration.good))
        try await state.addWebAuthnCredential(credential)
        #expect(await state.webAuthnCredentials(userId: credential.userId) == [credential])
        #expect(await state.webAuthnCredential(id: credential.credentialId)?.userId == credential.userId)
        #expect(await state.webAuthnCredentials(userId: "00uother").isEmpty)

        let verifier = WebAuthnAssertionVerifierTests.verifier()
        for _ in 0..<2 {
            let assertion = authenticator.assertion(Registration.good)
            let verified = try verifier.verify(
                clientData: assertion.clientData, authenticatorData: assertion.authData, signature: assertion.signatureData,
                credentials: await state.webAuthnCredentials(userId: credential.userId))
            #expect(await state.recordWebAuthnAssertion(verified))
        }
        #expect(await state.webAuthnCredentials(userId: credential.userId).first?.signCount == 2)

        // The copy made before those sign-ins signs with counter 1: refused against what the sandbox kept.
        let stale = copy.assertion(Registration.good)
        let credentials = await state.webAuthnCredentials(userId: credential.userId)
        #expect(throws: WebAuthnFailure.signCountNotIncreased(stored: 2, received: 1)) {
            try verifier.verify(
                clientData: stale.clientData, authenticatorData: stale.authData, signature: stale.signatureData, credentials: credentials)
        }
    }

    @Test func aCredentialIdIsRegisteredOnce() async throws {
        let state = SandboxState()
        let authenticator = TestAuthenticator.es256()
        let credential = try Registration.register(authenticator.registration(Registration.good))
        try await state.addWebAuthnCredential(credential)
        let again = try WebAuthnRegistrationVerifierTests.verifier().verify(
            clientData: authenticator.registration(Registration.good).clientData,
            attestation: authenticator.registration(Registration.good).attestation, userId: "00uother", now: Registration.now)
        await #expect(throws: WebAuthnFailure.credentialAlreadyRegistered) { try await state.addWebAuthnCredential(again) }
        #expect(await state.webAuthnCredentials(userId: "00uother").isEmpty)
    }

    @Test func aUserMayKeepSeveralAndRemoveOne() async throws {
        let state = SandboxState()
        let first = try Registration.register(TestAuthenticator.es256(credentialId: [1, 1, 1, 1]).registration(Registration.good))
        let second = try Registration.register(TestAuthenticator.es256(credentialId: [2, 2, 2, 2]).registration(Registration.good))
        try await state.addWebAuthnCredential(first)
        try await state.addWebAuthnCredential(second)
        #expect(await state.webAuthnCredentials(userId: first.userId).map(\.credentialId) == [[1, 1, 1, 1], [2, 2, 2, 2]])
        #expect(await state.removeWebAuthnCredential(userId: first.userId, credentialId: [1, 1, 1, 1]))
        #expect(await !state.removeWebAuthnCredential(userId: first.userId, credentialId: [1, 1, 1, 1]))
        #expect(await state.webAuthnCredentials(userId: first.userId) == [second])
    }
}
