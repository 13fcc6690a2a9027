import CBOR
import Crypto
import Foundation
import _CryptoExtras

/// A credential's public key, from the COSE_Key in its attested credential data (W3C WebAuthn §6.5.1.1, RFC 9053).
///
/// Okta offers ES256 first and RS256 second (`pubKeyCredParams` -7, -257), so those two are what the sandbox accepts;
/// any other key (EdDSA, ES384, a P-256 key labelled with another algorithm) is refused at registration rather than
/// stored as a credential that could never sign in.
enum WebAuthnPublicKey: Sendable {
    /// kty 2 (EC2), alg -7, crv 1 (P-256).
    case es256(P256.Signing.PublicKey)
    /// kty 3 (RSA), alg -257: RSASSA-PKCS1-v1_5 with SHA-256, 2048 bits or more.
    case rs256(_RSA.Signing.PublicKey)

    /// The COSE algorithm number, which a packed attestation's `alg` must repeat.
    var algorithm: Int {
        switch self {
        case .es256: return -7
        case .rs256: return -257
        }
    }

    /// `ES256` or `RS256`, for records and messages.
    var name: String {
        switch self {
        case .es256: return "ES256"
        case .rs256: return "RS256"
        }
    }

    /// Reads a COSE_Key map: kty 1, alg 3, and the curve and coordinates (-1, -2, -3) or modulus and exponent (-1, -2).
    init(cose key: CBOR) throws(WebAuthnFailure) {
        guard case .map = key else { throw .unsupportedPublicKey("the COSE key is not a CBOR map") }
        let kty = key[1]?.intValue
        let alg = key[3]?.intValue
        switch (kty, alg) {
        case (2, -7):
            guard key[-1]?.intValue == 1 else {
                throw .unsupportedPublicKey("an EC2 key on COSE curve \(key[-1]?.intValue.map(String.init) ?? "none"), not P-256 (1)")
            }
            guard let x = key[-2]?.bytesValue, let y = key[-3]?.bytesValue, x.count == 32, y.count == 32,
                let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { throw .unsupportedPublicKey("the P-256 coordinates are not a point on the curve") }
            self = .es256(publicKey)
        case (3, -257):
            guard let n = key[-1]?.bytesValue, let e = key[-2]?.bytesValue,
                let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { throw .unsupportedPublicKey("the RSA modulus and exponent do not make a key of 2048 bits or more") }
            self = .rs256(publicKey)
        default:
            let kind = kty.map { "kty \($0)" } ?? "no kty"
            let algorithm = alg.map { "alg \($0)" } ?? "no alg"
            throw .unsupportedPublicKey("a COSE key with \(kind) and \(algorithm); only ES256 (-7) and RS256 (-257) are accepted")
        }
    }

    /// Whether `signature` (DER ECDSA for ES256, PKCS#1 v1.5 for RS256; W3C §6.5.5) signs `message` with this key.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: message)
        case .rs256(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        }
    }

    /// The key as SubjectPublicKeyInfo DER, which identifies it in comparisons.
    var derRepresentation: Data {
        switch self {
        case .es256(let key): return key.derRepresentation
        case .rs256(let key): return key.derRepresentation
        }
    }
}

extension WebAuthnPublicKey: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.algorithm == rhs.algorithm && lhs.derRepresentation == rhs.derRepresentation
    }
}
