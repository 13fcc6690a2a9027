import CBOR
import Crypto
import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore

/// What a user of the authenticator notices: a new passkey that a server can verify (a none or packed attestation
/// with the chosen AAGUID, UV only when a PIN sealed it), assertions only from passkeys the server allows for this
/// site and user, and errors that say how to go on (enroll one, give a PIN).
struct PasskeyAuthenticatorTests {
    static let party = try! RelyingParty(origin: URL(string: "https://auth.example.com")!)
    static let user = Array("00uflku0io38ODGrP0w6".utf8)
    static let challenge: [UInt8] = Array(0..<32)
    let configuration = TestContext.configuration(org: "https://auth.example.com")
    let messages = Locked<[String]>([])

    var context: IdFlowContext {
        TestContext.make(
            transport: ScriptedTransport([]), configuration: configuration, environment: [:], messages: messages)
    }

    func authenticator(_ settings: PasskeyAuthenticator.Settings = .init(sealingRounds: 1 << 10)) -> PasskeyAuthenticator {
        PasskeyAuthenticator(relyingParty: Self.party, settings: settings, stateDirectory: configuration.stateDirectory)
    }

    func pinFile(_ pin: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-pin-\(UUID().uuidString)")
        try Data((pin + "\n").utf8).write(to: file)
        return file.path
    }

    @Test func aNewPasskeyIsAnAttestationTheServerCanRead() throws {
        let creation = try authenticator().create(
            .init(challenge: Self.challenge, userHandle: Self.user, algorithms: [-7, -257]), context: context)
        let clientData = try JSONSerialization.jsonObject(with: Data(creation.clientDataJSON)) as? [String: Any]
        #expect(clientData?["type"] as? String == "webauthn.create")
        #expect(clientData?["origin"] as? String == "https://auth.example.com")
        #expect(clientData?["challenge"] as? String == Base64URL.encode(Self.challenge))
        let object = try CBOR.decode(creation.attestationObject)
        #expect(object["fmt"]?.textValue == "none")
        let authData = try #require(object["authData"]?.bytesValue)
        #expect(Array(authData[0..<32]) == Self.party.idHash)
        #expect(authData[32] == 0x41)  // UP and AT: no PIN, no UV
        #expect(Array(authData[37..<53]) == [UInt8](repeating: 0, count: 16))
        #expect(Array(authData[55..<(55 + creation.credentialId.count)]) == creation.credentialId)
        #expect(!creation.userVerified && creation.passkey.userHandle == Base64URL.encode(Self.user))
        #expect(try PasskeyStore(stateDirectory: configuration.stateDirectory).all().map(\.id) == [creation.passkey.id])
    }

    @Test func aPackedAttestationCarriesTheChosenAAGUIDAndAPINSetsUV() throws {
        let aaguid = try #require(UUID(uuidString: "08987058-CADC-4B81-B6E1-30DE50DCBE96"))
        let settings = PasskeyAuthenticator.Settings(
            pin: .file(try pinFile("123456")), attestation: .packed, aaguid: aaguid, sealingRounds: 1 << 10)
        let creation = try authenticator(settings).create(
            .init(challenge: Self.challenge, userHandle: Self.user, userVerification: .required), context: context)
        let object = try CBOR.decode(creation.attestationObject)
        #expect(object["fmt"]?.textValue == "packed")
        #expect(object["attStmt"]?["alg"]?.intValue == -7)
        let authData = try #require(object["authData"]?.bytesValue)
        #expect(authData[32] == 0x45)
        #expect(
            Array(authData[37..<53]) == [0x08, 0x98, 0x70, 0x58, 0xCA, 0xDC, 0x4B, 0x81, 0xB6, 0xE1, 0x30, 0xDE, 0x50, 0xDC, 0xBE, 0x96])
        #expect(creation.userVerified && creation.passkey.sealed)
        #expect(creation.passkey.aaguid == "08987058-cadc-4b81-b6e1-30de50dcbe96")
    }

    @Test func aScriptWithoutAPINWhereUVIsRequiredExits3NamingThePINFile() throws {
        #expect {
            _ = try authenticator().create(
                .init(challenge: Self.challenge, userHandle: Self.user, userVerification: .required), context: context)
        } throws: { error in
            let error = error as? IdFlowError
            return error?.exitStatus == .rejected && error?.hint?.contains("--passkey-pin-file") == true
        }
        #expect(try PasskeyStore(stateDirectory: configuration.stateDirectory).all().isEmpty)
    }

    @Test func aKeyTypeIdflowCannotMakeAndAnAlreadyEnrolledPasskeyAreRefused() throws {
        #expect {
            _ = try authenticator().create(
                .init(challenge: Self.challenge, userHandle: Self.user, algorithms: [-257]), context: context)
        } throws: { ($0 as? IdFlowError)?.exitStatus == .rejected }
        let first = try authenticator().create(.init(challenge: Self.challenge, userHandle: Self.user), context: context)
        #expect {
            _ = try authenticator().create(
                .init(challenge: Self.challenge, userHandle: Self.user, excludedCredentialIds: [first.credentialId]),
                context: context)
        } throws: { ($0 as? IdFlowError)?.exitStatus == .rejected }
    }

    @Test func anAssertionComesFromAnAllowedPasskeyAndVerifiesWithItsKey() async throws {
        let creation = try authenticator().create(
            .init(challenge: Self.challenge, userHandle: Self.user, userVerification: .discouraged), context: context)
        let signed = try await authenticator().get(
            .init(challenge: [9, 9, 9], userVerification: .discouraged, allowedCredentialIds: [[1, 2, 3], creation.credentialId]),
            context: context)
        #expect(signed.passkeyId == creation.passkey.id && signed.userHandle == Self.user)
        #expect(signed.authenticatorData.count == 37 && signed.authenticatorData[32] == 0x01)
        #expect(Array(signed.authenticatorData[33..<37]) == [0, 0, 0, 1])
        let object = try CBOR.decode(creation.attestationObject)
        let authData = try #require(object["authData"]?.bytesValue)
        let key = try #require(COSEKey.publicKey(try CBOR.decode(Array(authData[(55 + 32)...]))))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: signed.signature)
        #expect(key.isValidSignature(signature, for: signed.authenticatorData + Digests.sha256(signed.clientDataJSON)))
        #expect(messages.withLock { $0 }.isEmpty)
    }

    @Test func anUnsealedPasskeySaysItIsUserPresentOnlyWhenTheServerAsksForUV() async throws {
        _ = try authenticator().create(.init(challenge: Self.challenge, userHandle: Self.user), context: context)
        messages.withLock { $0.removeAll() }
        let signed = try await authenticator().get(.init(challenge: [1], userVerification: .required), context: context)
        #expect(!signed.userVerified)
        #expect(messages.withLock { $0 }.contains { $0.contains("present, not verified") })
    }

    @Test func aSealedPasskeyNeedsItsPINAndThenSetsUV() async throws {
        let pin = try pinFile("correct horse")
        let sealed = PasskeyAuthenticator.Settings(pin: .file(pin), sealingRounds: 1 << 10)
        _ = try authenticator(sealed).create(.init(challenge: Self.challenge, userHandle: Self.user), context: context)
        await #expect {
            _ = try await authenticator().get(.init(challenge: [1]), context: context)
        } throws: { ($0 as? IdFlowError)?.hint?.contains("--passkey-pin-file") == true }
        let signed = try await authenticator(sealed).get(.init(challenge: [1], userVerification: .required), context: context)
        #expect(signed.userVerified && signed.authenticatorData[32] == 0x05)
    }

    @Test func noPasskeyForThisSiteOrUserSaysHowToEnrollOne() async throws {
        _ = try authenticator().create(.init(challenge: Self.challenge, userHandle: Self.user), context: context)
        let other = try RelyingParty(origin: URL(string: "https://login.example.org")!)
        let elsewhere = PasskeyAuthenticator(
            relyingParty: other, settings: .init(), stateDirectory: configuration.stateDirectory)
        for (authenticator, options) in [
            (elsewhere, PasskeyAuthenticator.RequestOptions(challenge: [1])),
            (authenticator(), PasskeyAuthenticator.RequestOptions(challenge: [1], userHandle: Array("00uother".utf8))),
            (authenticator(), PasskeyAuthenticator.RequestOptions(challenge: [1], allowedCredentialIds: [[7]])),
        ] {
            await #expect {
                _ = try await authenticator.get(options, context: context)
            } throws: { error in
                let error = error as? IdFlowError
                return error?.exitStatus == .notFound && error?.hint?.contains("--passkey") == true
            }
        }
        #expect(try authenticator().hasPasskey(userHandle: Self.user))
        #expect(try !elsewhere.hasPasskey())
    }
}
