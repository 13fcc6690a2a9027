import CBOR
import Crypto
import Foundation
import _CryptoExtras

@testable import IdFlowSandbox

/// A tiny software authenticator for the sandbox's WebAuthn tests: it makes registrations and assertions byte for
/// byte as webauthn.md lays them out (clientDataJSON, authenticatorData, attestationObject, COSE key), and lets a test
/// change any one value to see the verifier refuse it. It shares no code with idflow's own authenticator, so a
/// mistake on one side is not repeated on the other. A class, like the device it stands for: its counter moves with
/// every assertion, and `cloned()` is a copy of its credential that counts on its own.
final class TestAuthenticator {
    enum Key {
        case es256(P256.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
    }

    let key: Key
    let credentialId: [UInt8]
    var aaguid = [UInt8](repeating: 0, count: 16)
    /// The counter the next assertion carries (after incrementing, unless `counterless`).
    var signCount: UInt32 = 0

    init(key: Key, credentialId: [UInt8]) {
        self.key = key
        self.credentialId = credentialId
    }

    /// A copy of the credential (key, id, counter) that goes its own way from here, as a copied credential file does.
    func cloned() -> TestAuthenticator {
        let copy = TestAuthenticator(key: key, credentialId: credentialId)
        copy.aaguid = aaguid
        copy.signCount = signCount
        return copy
    }

    static func es256(credentialId: [UInt8] = Array(0..<16)) -> TestAuthenticator {
        TestAuthenticator(key: .es256(P256.Signing.PrivateKey()), credentialId: credentialId)
    }

    static func rs256(credentialId: [UInt8] = Array(100..<120)) throws -> TestAuthenticator {
        TestAuthenticator(key: .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048)), credentialId: credentialId)
    }

    /// The credential public key as a COSE_Key, canonical key order (1, 3, -1, -2, -3).
    var coseKey: CBOR {
        switch key {
        case .es256(let key):
            let raw = [UInt8](key.publicKey.rawRepresentation)
            return .map([
                CBORPair(int(1), int(2)), CBORPair(int(3), int(-7)), CBORPair(int(-1), int(1)),
                CBORPair(int(-2), .bytes(Array(raw.prefix(32)))), CBORPair(int(-3), .bytes(Array(raw.suffix(32)))),
            ])
        case .rs256(let key):
            let primitives = try! key.publicKey.getKeyPrimitives()
            return .map([
                CBORPair(int(1), int(3)), CBORPair(int(3), int(-257)),
                CBORPair(int(-1), .bytes([UInt8](primitives.modulus))), CBORPair(int(-2), .bytes([UInt8](primitives.publicExponent))),
            ])
        }
    }

    var algorithm: Int {
        switch key {
        case .es256: return -7
        case .rs256: return -257
        }
    }

    /// DER ECDSA or PKCS#1 v1.5 over `message` (W3C §6.5.5).
    func sign(_ message: [UInt8]) -> [UInt8] {
        switch key {
        case .es256(let key):
            return [UInt8](try! key.signature(for: message).derRepresentation)
        case .rs256(let key):
            return [UInt8](try! key.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    /// What a test may change in a ceremony; defaults make a valid one.
    struct Ceremony {
        var type: String?
        var challenge: String
        var origin: String
        var rpId: String
        /// UP|UV (0x05); AT is added at registration.
        var flags: UInt8 = 0x05
        var crossOrigin = false
    }

    /// `clientDataJSON` with the members in the order browsers write them.
    static func clientDataJSON(type: String, challenge: String, origin: String, crossOrigin: Bool) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":\#(crossOrigin)}"#.utf8)
    }

    /// rpIdHash, flags, signCount, then `rest` (attested credential data, extensions).
    static func authenticatorData(rpId: String, flags: UInt8, signCount: UInt32, rest: [UInt8] = []) -> [UInt8] {
        Array(SHA256.hash(data: Data(rpId.utf8))) + [flags] + withUnsafeBytes(of: signCount.bigEndian, Array.init) + rest
    }

    /// aaguid, credential id length and id, COSE key (W3C §6.5.1).
    func attestedCredentialData(coseKey: CBOR? = nil) -> [UInt8] {
        aaguid + [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xFF)] + credentialId + (coseKey ?? self.coseKey).encoded()
    }

    /// The fields a registration posts, in standard padded base64 as the widget sends them.
    struct Registration {
        let clientDataJSON: [UInt8]
        let attestationObject: [UInt8]
        var clientData: String { Data(clientDataJSON).base64EncodedString() }
        var attestation: String { Data(attestationObject).base64EncodedString() }
    }

    /// A registration: `fmt` `none`, or `packed` self attestation (signed by the credential key with `packedAlgorithm`,
    /// the key's own unless given). `authData` replaces the authenticator data when a test needs to break it.
    func registration(
        _ ceremony: Ceremony, format: String = "none", coseKey: CBOR? = nil, packedAlgorithm: Int? = nil, x5c: Bool = false,
        authData: [UInt8]? = nil
    ) -> Registration {
        let clientData = Self.clientDataJSON(
            type: ceremony.type ?? "webauthn.create", challenge: ceremony.challenge, origin: ceremony.origin,
            crossOrigin: ceremony.crossOrigin)
        let authData =
            authData
            ?? Self.authenticatorData(
                rpId: ceremony.rpId, flags: ceremony.flags | 0x40, signCount: signCount, rest: attestedCredentialData(coseKey: coseKey))
        var statement: [CBORPair] = []
        if format == "packed" {
            statement = [
                CBORPair(.text("alg"), int(packedAlgorithm ?? algorithm)),
                CBORPair(.text("sig"), .bytes(sign(authData + Array(SHA256.hash(data: clientData))))),
            ]
            if x5c { statement.append(CBORPair(.text("x5c"), .array([.bytes([0x30, 0x00])]))) }
        }
        let object = CBOR.map([
            CBORPair(.text("fmt"), .text(format)), CBORPair(.text("attStmt"), .map(statement)),
            CBORPair(.text("authData"), .bytes(authData)),
        ])
        return Registration(clientDataJSON: clientData, attestationObject: object.encoded())
    }

    /// The fields an assertion posts, in standard padded base64.
    struct Assertion {
        let clientDataJSON: [UInt8]
        let authenticatorData: [UInt8]
        let signature: [UInt8]
        var clientData: String { Data(clientDataJSON).base64EncodedString() }
        var authData: String { Data(authenticatorData).base64EncodedString() }
        var signatureData: String { Data(signature).base64EncodedString() }
    }

    /// An assertion; the counter goes up by one first unless `counterless` (a synced passkey's 0).
    func assertion(_ ceremony: Ceremony, counterless: Bool = false) -> Assertion {
        if !counterless { signCount += 1 }
        let clientData = Self.clientDataJSON(
            type: ceremony.type ?? "webauthn.get", challenge: ceremony.challenge, origin: ceremony.origin, crossOrigin: ceremony.crossOrigin
        )
        let authData = Self.authenticatorData(rpId: ceremony.rpId, flags: ceremony.flags, signCount: counterless ? 0 : signCount)
        return Assertion(
            clientDataJSON: clientData, authenticatorData: authData, signature: sign(authData + Array(SHA256.hash(data: clientData))))
    }
}

/// A CBOR integer from an `Int` (major type 0 or 1).
private func int(_ value: Int) -> CBOR {
    value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
}
