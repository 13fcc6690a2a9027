import Crypto
import Foundation
import IdFlowFoundation

/// What a device key stands for (devices.md §2a); the role decides which claims it may sign for.
public enum DeviceKeyRole: String, Codable, Sendable {
    /// The device identity on one org, shared by every enrollment there.
    case clientInstance
    /// Silent signing of challenge responses and maintenance-token assertions, one per enrollment.
    case proofOfPossession
    /// Signing after the user was verified (here: the PIN unlocked it), one per enrollment when asked for.
    case userVerification
}

/// One EC P-256 key of this device (swift-crypto), named by an uppercase UUID `kid` that is also the `kid`
/// of the JWK the server holds and of every JWT the key signs.
public struct DeviceKey: Sendable {
    public let kid: String
    public let role: DeviceKeyRole
    let privateKey: P256.Signing.PrivateKey

    init(kid: String, role: DeviceKeyRole, privateKey: P256.Signing.PrivateKey) {
        self.kid = kid
        self.role = role
        self.privateKey = privateKey
    }

    /// A fresh key with a fresh kid.
    public static func generate(_ role: DeviceKeyRole) -> DeviceKey {
        DeviceKey(kid: UUID().uuidString.uppercased(), role: role, privateKey: P256.Signing.PrivateKey())
    }

    /// The public half as the JWK sent at enrollment: `kty`, `crv`, `x`, `y`, `kid`, `okta:kpr` (SOFTWARE:
    /// the key lives in a file, not in secure hardware). `okta:isFipsCompliant` is iOS-only and left out.
    public var publicJWK: JSONValue {
        let raw = privateKey.publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32))),
            "kid": .string(kid), "okta:kpr": "SOFTWARE",
        ]
    }

    /// An ES256 signature of `input` as a JWS wants it: raw R‖S, 64 bytes.
    func sign(_ input: Data) throws(IdFlowError) -> Data {
        do {
            return try privateKey.signature(for: input).rawRepresentation
        } catch {
            throw .internalFailure("cannot sign with device key \(kid): \(error)")
        }
    }
}

/// ES256 JWTs signed by a device key: the enrollment attestation (§2b), the maintenance-token assertion
/// (§7b) and the challenge response (§6c). The signature maths is swift-crypto's; only the JWS framing is here.
enum DeviceJWT {
    static func sign(type: String, claims: JSONValue, key: DeviceKey) throws(IdFlowError) -> String {
        try CompactJWS.sign(header: ["alg": "ES256", "typ": .string(type), "kid": .string(key.kid)], claims: claims) {
            (input: Data) throws(IdFlowError) in try key.sign(input)
        }
    }

    /// The time claims every device JWT carries: `iat` now, `exp` 5 minutes on, `nbf` 5 minutes back, and a
    /// fresh uppercase UUID `jti`.
    static func timeClaims(now: Date) -> [String: JSONValue] {
        let issuedAt = Int(now.timeIntervalSince1970)
        return [
            "iat": .number(Double(issuedAt)), "exp": .number(Double(issuedAt + 300)), "nbf": .number(Double(issuedAt - 300)),
            "jti": .string(UUID().uuidString.uppercased()),
        ]
    }
}
