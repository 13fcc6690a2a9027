import CBOR
import Foundation
import Testing

@testable import IdFlowSandbox

/// The test authenticator writes the byte layouts the WebAuthn protocol notes give (W3C §6.1, §6.5.1.1, §6.5.4,
/// §8.2), and the sandbox's parsers read them back field by field. No Okta recording holds real attestation or
/// assertion bytes (the SDK tests never post a credential), so these documented layouts are the reference.
@Suite struct WebAuthnByteLayoutTests {
    typealias Registration = WebAuthnRegistrationVerifierTests

    static func hex(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    @Test func anES256COSEKeyIsThe77ByteCanonicalMap() throws {
        let encoded = TestAuthenticator.es256().coseKey.encoded()
        #expect(encoded.count == 77)
        #expect(Array(encoded.prefix(10)) == Self.hex("A5 01 02 03 26 20 01 21 58 20"))
        #expect(Array(encoded[42..<45]) == Self.hex("22 58 20"))
    }

    @Test func aNoneAttestationObjectReadsBackFieldByField() throws {
        let authenticator = TestAuthenticator.es256()
        let registration = authenticator.registration(Registration.good)
        let bytes = registration.attestationObject
        // {"fmt":"none","attStmt":{},"authData":<148 bytes>}: 32+1+4 + 16+2+16 + 77.
        #expect(
            Array(bytes.prefix(30)) == Self.hex("A3 63 66 6D 74 64 6E 6F 6E 65 67 61 74 74 53 74 6D 74 A0 68 61 75 74 68 44 61 74 61 58 94")
        )
        let attestation = try WebAuthnAttestation(bytes: bytes)
        #expect(attestation.format == "none")
        let authData = attestation.authenticatorData
        #expect(authData.bytes.count == 148)
        #expect(authData.flags.rawValue == 0x45)
        #expect(authData.flags.userPresent && authData.flags.userVerified && authData.flags.attestedCredentialData)
        #expect(authData.signCount == 0)
        #expect(authData.attestedCredential?.credentialId == authenticator.credentialId)
        #expect(authData.attestedCredential?.aaguid == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(authData.attestedCredential?.publicKey == authenticator.coseKey)
    }

    @Test func aPackedStatementIsAlgThenSig() throws {
        let bytes = TestAuthenticator.es256().registration(Registration.good, format: "packed").attestationObject
        let object = try CBOR.decode(bytes)
        let statement = try #require(object["attStmt"])
        #expect(statement.encoded().prefix(11) == ArraySlice(Self.hex("A2 63 61 6C 67 26 63 73 69 67 58")))
    }

    @Test func anAssertionsAuthenticatorDataIs37Bytes() throws {
        let assertion = TestAuthenticator.es256().assertion(Registration.good)
        let authData = try WebAuthnAuthenticatorData(bytes: assertion.authenticatorData)
        #expect(assertion.authenticatorData.count == 37)
        #expect(authData.flags.rawValue == 0x05)
        #expect(authData.signCount == 1)
        #expect(authData.attestedCredential == nil)
    }

    @Test func truncatedAuthenticatorDataIsRefusedNotHalfRead() throws {
        let registration = TestAuthenticator.es256().registration(Registration.good)
        let authData = try #require(try CBOR.decode(registration.attestationObject)["authData"]?.bytesValue)
        for length in [0, 36, 37 + 17, 37 + 18 + 15, authData.count - 1] {
            let error = #expect(throws: WebAuthnFailure.self) { try WebAuthnAuthenticatorData(bytes: Array(authData.prefix(length))) }
            guard case .authenticatorDataMalformed = error else {
                Issue.record("\(length) bytes: expected malformed, got \(String(describing: error))")
                continue
            }
        }
    }
}
