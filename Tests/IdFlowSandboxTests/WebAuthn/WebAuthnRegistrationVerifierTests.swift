import CBOR
import Foundation
import Testing

@testable import IdFlowSandbox

/// The sandbox's checks of a passkey registration: a good `none` or `packed` answer gives the credential it keeps,
/// and each broken value is refused with its own reason.
@Suite struct WebAuthnRegistrationVerifierTests {
    static let origin = "http://127.0.0.1:8080"
    static let rpId = "127.0.0.1"
    static let challenge = base64URL(Data((0..<32).map { UInt8($0 * 7 & 0xFF) }))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func verifier(_ userVerification: WebAuthnUserVerification = .preferred, allowedAAGUIDs: [UUID] = [])
        -> WebAuthnRegistrationVerifier
    {
        WebAuthnRegistrationVerifier(
            ceremony: WebAuthnCeremony(challenge: challenge, origin: origin, rpId: rpId, userVerification: userVerification),
            allowedAAGUIDs: allowedAAGUIDs)
    }

    static var good: TestAuthenticator.Ceremony { TestAuthenticator.Ceremony(challenge: challenge, origin: origin, rpId: rpId) }

    static func register(
        _ registration: TestAuthenticator.Registration, _ verifier: WebAuthnRegistrationVerifier = verifier()
    ) throws(WebAuthnFailure) -> WebAuthnCredential {
        try verifier.verify(clientData: registration.clientData, attestation: registration.attestation, userId: "00uwebauthn", now: now)
    }

    @Test func aNoneRegistrationGivesTheCredentialToKeep() throws {
        let authenticator = TestAuthenticator.es256()
        let credential = try Self.register(authenticator.registration(Self.good))
        #expect(credential.credentialId == authenticator.credentialId)
        #expect(credential.credentialIdText == "AAECAwQFBgcICQoLDA0ODw")
        guard case .es256(let key) = authenticator.key, case .es256(let stored) = credential.publicKey else {
            Issue.record("an ES256 key was expected")
            return
        }
        #expect(stored.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(credential.signCount == 0)
        #expect(credential.aaguidText == "00000000-0000-0000-0000-000000000000")
        #expect(credential.userId == "00uwebauthn")
        #expect(credential.created == Self.now)
        #expect(!credential.backupEligible && !credential.backedUp)
        #expect(credential.attestationFormat == "none")
    }

    @Test func aPackedSelfAttestationPasses() throws {
        let credential = try Self.register(TestAuthenticator.es256().registration(Self.good, format: "packed"))
        #expect(credential.attestationFormat == "packed")
    }

    @Test func backupFlagsAreKept() throws {
        var ceremony = Self.good
        ceremony.flags = 0x1D  // UP|UV|BE|BS
        let credential = try Self.register(TestAuthenticator.es256().registration(ceremony))
        #expect(credential.backupEligible && credential.backedUp)
    }

    @Test func anRS256CredentialIsAccepted() throws {
        let credential = try Self.register(try TestAuthenticator.rs256().registration(Self.good, format: "packed"))
        #expect(credential.publicKey.name == "RS256")
    }

    @Test func aPackedSignatureByAnotherKeyIsRefused() throws {
        let other = TestAuthenticator.es256()
        // The authenticator data carries `other`'s key; the statement is signed by the first authenticator's.
        let registration = TestAuthenticator.es256().registration(Self.good, format: "packed", coseKey: other.coseKey)
        #expect(throws: WebAuthnFailure.attestationSignatureInvalid) { try Self.register(registration) }
    }

    @Test func aPackedAlgorithmOtherThanTheKeysIsRefused() throws {
        let registration = TestAuthenticator.es256().registration(Self.good, format: "packed", packedAlgorithm: -257)
        #expect(throws: WebAuthnFailure.attestationAlgorithmMismatch(expected: -7, received: -257)) { try Self.register(registration) }
    }

    @Test func aPackedCertificateChainIsRefusedAsUnsupported() throws {
        let registration = TestAuthenticator.es256().registration(Self.good, format: "packed", x5c: true)
        let error = #expect(throws: WebAuthnFailure.attestationCertificatesUnsupported) { try Self.register(registration) }
        #expect(error?.reason.contains("x5c") == true)
    }

    @Test func anotherAttestationFormatIsRefused() throws {
        let registration = TestAuthenticator.es256().registration(Self.good, format: "fido-u2f")
        #expect(throws: WebAuthnFailure.unsupportedAttestationFormat("fido-u2f")) { try Self.register(registration) }
    }

    @Test func aWrongChallengeIsRefused() throws {
        var ceremony = Self.good
        ceremony.challenge = base64URL(Data(repeating: 9, count: 32))
        #expect(throws: WebAuthnFailure.challengeMismatch) { try Self.register(TestAuthenticator.es256().registration(ceremony)) }
    }

    @Test func aWrongOriginIsRefused() throws {
        var ceremony = Self.good
        ceremony.origin = "https://evil.example"
        #expect(throws: WebAuthnFailure.originMismatch(expected: Self.origin, received: "https://evil.example")) {
            try Self.register(TestAuthenticator.es256().registration(ceremony))
        }
    }

    @Test func anAssertionTypeIsRefusedAtRegistration() throws {
        var ceremony = Self.good
        ceremony.type = "webauthn.get"
        #expect(throws: WebAuthnFailure.wrongType(expected: "webauthn.create", received: "webauthn.get")) {
            try Self.register(TestAuthenticator.es256().registration(ceremony))
        }
    }

    @Test func aCrossOriginCeremonyIsRefused() throws {
        var ceremony = Self.good
        ceremony.crossOrigin = true
        #expect(throws: WebAuthnFailure.crossOrigin) { try Self.register(TestAuthenticator.es256().registration(ceremony)) }
    }

    @Test func anotherRPIDIsRefused() throws {
        var ceremony = Self.good
        ceremony.rpId = "example.com"
        #expect(throws: WebAuthnFailure.rpIdHashMismatch(rpId: Self.rpId)) {
            try Self.register(TestAuthenticator.es256().registration(ceremony))
        }
    }

    @Test func withoutUserPresenceItIsRefused() throws {
        var ceremony = Self.good
        ceremony.flags = 0x04  // UV only
        #expect(throws: WebAuthnFailure.userNotPresent) { try Self.register(TestAuthenticator.es256().registration(ceremony)) }
    }

    @Test func withoutUserVerificationItIsRefusedOnlyWhenRequired() throws {
        var ceremony = Self.good
        ceremony.flags = 0x01  // UP only: an unsealed software passkey
        let registration = TestAuthenticator.es256().registration(ceremony)
        #expect(throws: WebAuthnFailure.userNotVerified) { try Self.register(registration, Self.verifier(.required)) }
        _ = try Self.register(registration, Self.verifier(.preferred))
        _ = try Self.register(registration, Self.verifier(.discouraged))
    }

    @Test func backedUpWithoutEligibilityIsRefused() throws {
        var ceremony = Self.good
        ceremony.flags = 0x15  // UP|UV|BS
        #expect(throws: WebAuthnFailure.backupStateWithoutEligibility) {
            try Self.register(TestAuthenticator.es256().registration(ceremony))
        }
    }

    @Test func withoutAttestedCredentialDataItIsRefused() throws {
        let authData = TestAuthenticator.authenticatorData(rpId: Self.rpId, flags: 0x05, signCount: 0)
        let registration = TestAuthenticator.es256().registration(Self.good, authData: authData)
        #expect(throws: WebAuthnFailure.attestedCredentialMissing) { try Self.register(registration) }
    }

    @Test func anEdDSAKeyIsRefused() throws {
        let eddsa = CBOR.map([
            CBORPair(.unsigned(1), .unsigned(1)), CBORPair(.unsigned(3), .negative(7)), CBORPair(.negative(0), .unsigned(6)),
            CBORPair(.negative(1), .bytes(Array(repeating: 1, count: 32))),
        ])
        let registration = TestAuthenticator.es256().registration(Self.good, coseKey: eddsa)
        let error = #expect(throws: WebAuthnFailure.self) { try Self.register(registration) }
        guard case .unsupportedPublicKey(let detail) = error else {
            Issue.record("expected an unsupported key, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("kty 1") && detail.contains("alg -8"))
    }

    @Test func anAAGUIDOffTheAllowListIsRefused() throws {
        let authenticator = TestAuthenticator.es256()
        authenticator.aaguid = Array(repeating: 0xAB, count: 16)
        let aaguid = UUID(uuidString: "ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB")!
        let listed = UUID(uuidString: "08987058-CADC-4B81-B6E1-30DE50DCBE96")!
        let registration = authenticator.registration(Self.good)
        #expect(throws: WebAuthnFailure.aaguidNotAllowed(aaguid)) {
            try Self.register(registration, Self.verifier(allowedAAGUIDs: [listed]))
        }
        let credential = try Self.register(registration, Self.verifier(allowedAAGUIDs: [listed, aaguid]))
        #expect(credential.aaguidText == "abababab-abab-abab-abab-abababababab")
    }

    @Test func standardBase64AndBase64URLAreBothRead() throws {
        let registration = TestAuthenticator.es256().registration(Self.good)
        let clientData = base64URL(Data(registration.clientDataJSON))
        let attestation = base64URL(Data(registration.attestationObject))
        #expect(clientData != registration.clientData)
        _ = try Self.verifier().verify(clientData: clientData, attestation: attestation, userId: "00u1", now: Self.now)
        _ = try Self.verifier().verify(
            clientData: registration.clientData, attestation: registration.attestation, userId: "00u1", now: Self.now)
        #expect(throws: WebAuthnFailure.notBase64(field: "attestation")) {
            try Self.verifier().verify(clientData: clientData, attestation: "not*base64", userId: "00u1", now: Self.now)
        }
    }

    @Test func trailingBytesAfterTheKeyAreRefused() throws {
        let authenticator = TestAuthenticator.es256()
        let authData = TestAuthenticator.authenticatorData(
            rpId: Self.rpId, flags: 0x45, signCount: 0, rest: authenticator.attestedCredentialData() + [0x00])
        let error = #expect(throws: WebAuthnFailure.self) { try Self.register(authenticator.registration(Self.good, authData: authData)) }
        guard case .authenticatorDataMalformed = error else {
            Issue.record("expected malformed authenticator data, got \(String(describing: error))")
            return
        }
    }

    @Test func aRegistrationFailureSaysWhatFailedAndNamesTheAAGUID() {
        let aaguid = UUID(uuidString: "ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB")!
        let message = WebAuthnFailure.aaguidNotAllowed(aaguid).idxMessage(for: .registration)
        #expect(message.i18nKey == "idflow.sandbox.webauthn.aaguidNotAllowed")
        #expect(message.message.contains("abababab-abab-abab-abab-abababababab"))
        #expect(WebAuthnFailure.challengeMismatch.idxMessage(for: .registration).message.contains("challenge"))
    }
}
