import Foundation
import JWTKit

/// One key of the issuer's JWKS, read from its JSON without trusting it to be complete or of a known type.
package struct IssuerKey: Sendable {
    var keyType: String?
    var keyID: String?
    var algorithm: String?
    var use: String?
    var operations: [String]?
    var curve: String?
    var json: JSONValue

    init(_ json: JSONValue) {
        self.json = json
        keyType = json["kty"]?.stringValue
        keyID = json["kid"]?.stringValue
        algorithm = json["alg"]?.stringValue
        use = json["use"]?.stringValue
        operations = json["key_ops"]?.arrayValue?.compactMap(\.stringValue)
        curve = json["crv"]?.stringValue
    }

    /// How the key is named in messages.
    var name: String { keyID.map { "kid \($0)" } ?? "without kid" }

    /// Why this key cannot verify `algorithm`, or nil when it can. This is what keeps an RSA key from being
    /// used as an HMAC secret or for another padding than the one it was published for.
    func problem(verifying algorithm: SignatureAlgorithm) -> String? {
        guard keyType == algorithm.keyType else {
            return "the key \(name) is kty \(keyType ?? "(none)"), but alg \(algorithm.rawValue) needs kty \(algorithm.keyType)"
        }
        if let declared = self.algorithm, declared != algorithm.rawValue {
            return "the key \(name) is published for alg \(declared), not \(algorithm.rawValue)"
        }
        if let use, use != "sig" {
            return "the key \(name) is published for use \(use), not for signatures"
        }
        if let operations, !operations.contains("verify") {
            return "the key \(name) is published for key_ops \(operations.joined(separator: ",")), which excludes verify"
        }
        if let required = algorithm.curve, curve != required {
            return "the key \(name) is on curve \(curve ?? "(none)"), but alg \(algorithm.rawValue) needs \(required)"
        }
        return nil
    }

    /// The key as a jwt-kit JWK pinned to `algorithm`, carrying only public parameters.
    func jwk(for algorithm: SignatureAlgorithm, identifier: JWKIdentifier) -> JWK? {
        guard let jwkAlgorithm = JWK.Algorithm(rawValue: algorithm.rawValue) else { return nil }
        switch algorithm.keyType {
        case "RSA":
            return .rsa(jwkAlgorithm, identifier: identifier, modulus: json["n"]?.stringValue, exponent: json["e"]?.stringValue)
        default:
            return .ecdsa(
                jwkAlgorithm, identifier: identifier, x: json["x"]?.stringValue, y: json["y"]?.stringValue,
                curve: curve.flatMap(ECDSACurve.init(rawValue:)))
        }
    }
}
