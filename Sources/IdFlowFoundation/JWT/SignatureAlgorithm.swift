import Crypto
import Foundation

/// The JWS algorithms idflow can verify, each tied to the key type and curve it needs and the hash it uses.
package enum SignatureAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256"
    case rs384 = "RS384"
    case rs512 = "RS512"
    case ps256 = "PS256"
    case ps384 = "PS384"
    case ps512 = "PS512"
    case es256 = "ES256"
    case es384 = "ES384"
    case es512 = "ES512"

    /// The JWK `kty` a key must have to verify this algorithm.
    var keyType: String {
        switch self {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: return "RSA"
        case .es256, .es384, .es512: return "EC"
        }
    }

    /// The JWK `crv` an EC key must have (ES512 uses P-521, not a typo).
    var curve: String? {
        switch self {
        case .es256: return "P-256"
        case .es384: return "P-384"
        case .es512: return "P-521"
        default: return nil
        }
    }

    /// The hash of `data` with this algorithm's SHA-2 variant.
    func digest(_ data: Data) -> Data {
        switch self {
        case .rs256, .ps256, .es256: return Data(SHA256.hash(data: data))
        case .rs384, .ps384, .es384: return Data(SHA384.hash(data: data))
        case .rs512, .ps512, .es512: return Data(SHA512.hash(data: data))
        }
    }
}
