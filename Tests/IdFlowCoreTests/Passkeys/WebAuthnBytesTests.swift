import CBOR
import Crypto
import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore

/// The bytes idflow's passkeys post, checked against the layouts of the WebAuthn protocol notes (offsets, lengths,
/// flags, the COSE and attestation prefixes they spell out) and the signatures verified with swift-crypto, as a
/// relying party would.
struct WebAuthnBytesTests {
    static let org = URL(string: "https://auth.example.com")!

    static func contextualData(_ fixture: String) throws -> [String: Any] {
        let document = try Fixtures.object("okta-webauthn/\(fixture)")
        let current = try #require(document["currentAuthenticator"] as? [String: Any])
        let value = try #require(current["value"] as? [String: Any])
        return try #require(value["contextualData"] as? [String: Any])
    }

    // MARK: RP ID and origin

    @Test func theRPIDOfARecordedEnrolmentComesFromItsAppIdAndIsTheOrgHost() throws {
        let activation = try #require(
            try Self.contextualData("swift-idx-webauthn-enrolment-challenge-response.json")["activationData"]
                as? [String: Any])
        #expect((activation["rp"] as? [String: Any])?["id"] == nil)
        let appId = (activation["u2fParams"] as? [String: Any])?["appid"] as? String
        let party = try RelyingParty(origin: Self.org.appendingPathComponent("idp/idx/challenge/answer"), appId: appId)
        #expect(party.id == "auth.example.com")
        #expect(party.originText == "https://auth.example.com")
        #expect(party.idHash == Array(SHA256.hash(data: Array("auth.example.com".utf8))))
    }

    @Test func theRPIDOfARecordedChallengeComesFromItsExtensionsAppId() throws {
        let challenge = try #require(
            try Self.contextualData("swift-idx-webauthn-authentication-challenge-response.json")["challengeData"]
                as? [String: Any])
        let appId = (challenge["extensions"] as? [String: Any])?["appid"] as? String
        #expect(try RelyingParty(origin: Self.org, appId: appId).id == "auth.example.com")
    }

    @Test func withNothingNamedTheRPIDIsTheHostAndTheOriginKeepsAPort() throws {
        let party = try RelyingParty(origin: URL(string: "http://127.0.0.1:8080/oauth2/v1")!)
        #expect(party.id == "127.0.0.1")
        #expect(party.originText == "http://127.0.0.1:8080")
    }

    @Test(arguments: ["example.com", "auth.example.com", "AUTH.example.com."])
    func aRegistrableSuffixOfTheHostIsAccepted(rpId: String) throws {
        #expect(try RelyingParty(origin: Self.org, requestedId: rpId).id == rpId.lowercased().trimmingSuffix("."))
    }

    @Test(arguments: ["com", "evil.com", "xauth.example.com", "ample.com", "other.auth.example.com", ".example.com"])
    func anRPIDThatIsNotTheHostOrAParentOfItIsRefusedWithExit13(rpId: String) {
        #expect {
            _ = try RelyingParty(origin: Self.org, requestedId: rpId)
        } throws: { error in
            guard let error = error as? IdFlowError, case .security(let message, _) = error else { return false }
            return error.exitStatus == .security && message.contains("auth.example.com")
        }
    }

    @Test func anAppIdOnAnotherHostIsRefused() {
        #expect(throws: IdFlowError.self) { _ = try RelyingParty(origin: Self.org, appId: "https://evil.example.net") }
        #expect(throws: IdFlowError.self) {
            _ = try RelyingParty(origin: URL(string: "https://10.0.0.1")!, requestedId: "0.0.1")
        }
    }

    // MARK: clientDataJSON

    @Test func clientDataIsSerializedAsBrowsersDo() throws {
        let party = try RelyingParty(origin: Self.org)
        let create = try ClientData(ceremony: .create, challenge: "YAS4Fj0L-HRueJP3Z0uRkSRIdikfmnno", origin: party.origin)
        #expect(
            String(decoding: create.json, as: UTF8.self)
                == #"{"type":"webauthn.create","challenge":"YAS4Fj0L-HRueJP3Z0uRkSRIdikfmnno","#
                + #""origin":"https://auth.example.com","crossOrigin":false}"#)
        #expect(create.hash == Array(SHA256.hash(data: create.json)))
        let get = try ClientData(ceremony: .get, challenge: "X6GLEsXcstcsD2SrTGPSgeIrxINFGSxY", origin: party.origin)
        #expect(String(decoding: get.json, as: UTF8.self).hasPrefix(#"{"type":"webauthn.get","challenge":"X6GLEsXc"#))
        #expect(throws: IdFlowError.self) { _ = try ClientData(ceremony: .get, challenge: "not base64!", origin: party.origin) }
        #expect(ClientData.string("a\"b\\c\u{1}") == #""a\"b\\c\u0001""#)
    }

    // MARK: authenticatorData, attestation, assertion

    static func enrolment(flags: AuthenticatorData.Flags) throws -> (AuthenticatorData, P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        let credential = AuthenticatorData.AttestedCredential(
            aaguid: [UInt8](repeating: 0, count: 16), credentialId: Array(0..<16), publicKey: key.publicKey)
        let data = AuthenticatorData(
            relyingParty: try RelyingParty(origin: org), flags: flags, signCount: 0, attestedCredential: credential)
        return (data, key)
    }

    @Test func enrolmentAuthenticatorDataHasTheLayoutOfTheNotes() throws {
        let (data, key) = try Self.enrolment(flags: [.userPresent, .userVerified])
        let bytes = data.bytes
        // 32 + 1 + 4 + 16 + 2 + 16 + 77 (webauthn.md §5).
        #expect(bytes.count == 148)
        #expect(Array(bytes[0..<32]) == Array(SHA256.hash(data: Array("auth.example.com".utf8))))
        #expect(bytes[32] == 0x45)
        #expect(Array(bytes[33..<37]) == [0, 0, 0, 0])
        #expect(Array(bytes[37..<53]) == [UInt8](repeating: 0, count: 16))
        #expect(Array(bytes[53..<55]) == [0, 16])
        #expect(Array(bytes[55..<71]) == Array(0..<16))
        let cose = Array(bytes[71...])
        #expect(Array(cose.prefix(10)) == [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20])
        #expect(Array(cose[42..<45]) == [0x22, 0x58, 0x20])
        let (decoded, rest) = try CBOR.decodePrefix(bytes[71...])
        #expect(rest.isEmpty)
        #expect(COSEKey.publicKey(decoded)?.rawRepresentation == key.publicKey.rawRepresentation)
        let backedUp = try Self.enrolment(flags: [.userPresent, .userVerified, .backupEligible, .backedUp]).0
        #expect(backedUp.bytes[32] == 0x5D)
        #expect(try Self.enrolment(flags: [.userPresent]).0.bytes[32] == 0x41)
    }

    @Test func assertionAuthenticatorDataIs37BytesWithABigEndianCount() throws {
        let party = try RelyingParty(origin: Self.org)
        let data = AuthenticatorData(relyingParty: party, flags: [.userPresent, .userVerified], signCount: 0x0102_0304)
        #expect(data.bytes.count == 37)
        #expect(data.bytes[32] == 0x05)
        #expect(Array(data.bytes[33...]) == [1, 2, 3, 4])
        #expect(AuthenticatorData(relyingParty: party, flags: [.userPresent], signCount: 1).bytes[32] == 0x01)
    }

    @Test func aNoneAttestationObjectIsTheNotesBytesFollowedByTheAuthenticatorData() throws {
        let (data, key) = try Self.enrolment(flags: [.userPresent])
        let clientData = try ClientData(ceremony: .create, challenge: "YAS4Fj0L", origin: RelyingParty(origin: Self.org).origin)
        let object = try AttestationObject.encoded(
            format: .none, authenticatorData: data, clientDataHash: clientData.hash, credentialKey: key)
        let prefix: [UInt8] = [
            0xA3, 0x63, 0x66, 0x6D, 0x74, 0x64, 0x6E, 0x6F, 0x6E, 0x65, 0x67, 0x61, 0x74, 0x74, 0x53, 0x74, 0x6D, 0x74,
            0xA0, 0x68, 0x61, 0x75, 0x74, 0x68, 0x44, 0x61, 0x74, 0x61, 0x58, 148,
        ]
        #expect(Array(object.prefix(prefix.count)) == prefix)
        #expect(Array(object.dropFirst(prefix.count)) == data.bytes)
    }

    @Test func aPackedSelfAttestationIsSignedByTheCredentialKey() throws {
        let (data, key) = try Self.enrolment(flags: [.userPresent])
        let clientData = try ClientData(ceremony: .create, challenge: "YAS4Fj0L", origin: RelyingParty(origin: Self.org).origin)
        let object = try CBOR.decode(
            AttestationObject.encoded(format: .packed, authenticatorData: data, clientDataHash: clientData.hash, credentialKey: key))
        #expect(object["fmt"]?.textValue == "packed")
        #expect(object["authData"]?.bytesValue == data.bytes)
        let statement = try #require(object["attStmt"])
        #expect(Array(statement.encoded().prefix(10)) == [0xA2, 0x63, 0x61, 0x6C, 0x67, 0x26, 0x63, 0x73, 0x69, 0x67])
        #expect(statement["alg"]?.intValue == -7)
        #expect(statement["x5c"] == nil)
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(statement["sig"]?.bytesValue))
        #expect(key.publicKey.isValidSignature(signature, for: data.bytes + clientData.hash))
    }

    @Test func anAssertionIsADERSignatureOverAuthenticatorDataAndTheClientDataHash() throws {
        let party = try RelyingParty(origin: Self.org)
        let key = P256.Signing.PrivateKey()
        let clientData = try ClientData(ceremony: .get, challenge: "X6GLEsXcstcsD2SrTGPSgeIrxINFGSxY", origin: party.origin)
        let assertion = try Assertion(
            authenticatorData: AuthenticatorData(relyingParty: party, flags: [.userPresent], signCount: 7),
            clientData: clientData, userHandle: Array("00uflku0io38ODGrP0w6".utf8), credentialKey: key)
        #expect(assertion.authenticatorData.count == 37)
        #expect(assertion.clientDataJSON == clientData.json)
        #expect(assertion.signature.first == 0x30)
        let signature = try P256.Signing.ECDSASignature(derRepresentation: assertion.signature)
        let signed = assertion.authenticatorData + Array(SHA256.hash(data: assertion.clientDataJSON))
        #expect(key.publicKey.isValidSignature(signature, for: signed))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: signed))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
