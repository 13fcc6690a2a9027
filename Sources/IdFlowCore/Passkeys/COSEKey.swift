import CBOR
import Crypto

/// A credential public key as WebAuthn carries it: an ES256 COSE_Key (W3C §6.5.1.1, RFC 9053 §7.1.1),
/// `{1: 2, 3: -7, -1: 1, -2: x, -3: y}` in CTAP2 canonical order, 77 bytes.
enum COSEKey {
    /// COSE algorithm -7: ECDSA with SHA-256 on P-256.
    static let es256 = -7

    static func es256(_ key: P256.Signing.PublicKey) -> CBOR {
        // x9.63: 0x04 ‖ x ‖ y, each coordinate 32 bytes.
        let point = Array(key.x963Representation)
        return .map([
            CBORPair(.int(1), .int(2)),
            CBORPair(.int(3), .int(es256)),
            CBORPair(.int(-1), .int(1)),
            CBORPair(.int(-2), .bytes(Array(point[1...32]))),
            CBORPair(.int(-3), .bytes(Array(point[33...64]))),
        ])
    }

    /// The public key a COSE ES256 map holds; nil for any other key type or a point off the curve.
    static func publicKey(_ cose: CBOR) -> P256.Signing.PublicKey? {
        guard cose[1]?.intValue == 2, cose[3]?.intValue == es256, cose[-1]?.intValue == 1,
            let x = cose[-2]?.bytesValue, let y = cose[-3]?.bytesValue, x.count == 32, y.count == 32
        else { return nil }
        return try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
    }
}
