import Crypto
import Foundation
import JWTKit

/// A JWT a device signed with one of its registered EC P-256 keys (devices.md §2b attestation,
/// §6c challenge response, §7b jwt-bearer assertion): parsing, key lookup and ES256 verification.
///
/// jwt-kit checks the signature (raw R‖S over `b64url(header).b64url(payload)`); the claims are
/// judged by the caller against the sandbox clock, since each kind of token has its own rules. The client's
/// `DeviceJWT` signs such tokens on the device; this side only verifies them.
enum DeviceJWTVerifier {
    /// Why a device-signed token is refused; the text becomes the error's cause.
    struct Rejected: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The header fields the sandbox reads: only ES256, and the `kid` of a registered key.
    struct Header: Sendable {
        let kid: String
        let typ: String?
    }

    /// Reads the header without trusting anything: `alg` must be ES256 and `kid` present.
    static func header(of token: String) throws(Rejected) -> Header {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[0])),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw Rejected("not a signed JWT") }
        guard object["alg"] as? String == "ES256" else { throw Rejected("alg must be ES256") }
        guard let kid = object["kid"] as? String, !kid.isEmpty else { throw Rejected("the header has no kid") }
        return Header(kid: kid, typ: object["typ"] as? String)
    }

    /// Verifies the signature with `key` and decodes the claims.
    static func verify<Claims: JWTPayload>(
        _ token: String, with key: P256.Signing.PublicKey, kid: String, as type: Claims.Type
    ) async throws(Rejected) -> Claims {
        do {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PublicKey(backing: key), kid: JWKIdentifier(string: kid))
            return try await keys.verify(token, as: type)
        } catch {
            throw Rejected("the signature does not verify with key \(kid)")
        }
    }

    /// The public key of an EC P-256 JWK as devices send them (`kty`, `crv`, `x`, `y`, `kid`).
    static func publicKey(fromJWK jwk: OrderedJSON, field: String) throws -> (kid: String, key: P256.Signing.PublicKey) {
        guard let object = jwk.objectValue else {
            throw OktaErrorResponse.validation(field, causes: ["\(field): must be a JWK object"])
        }
        guard object["kty"]?.stringValue == "EC", object["crv"]?.stringValue == "P-256" else {
            throw OktaErrorResponse.validation(field, causes: ["\(field): only EC keys on P-256 are supported"])
        }
        let kid = try Required.text(object["kid"]?.stringValue, else: OktaErrorResponse.blank("\(field).kid", field: field))
        guard let x = object["x"]?.stringValue.flatMap(Data.init(base64URLEncoded:)),
            let y = object["y"]?.stringValue.flatMap(Data.init(base64URLEncoded:)), x.count == 32, y.count == 32,
            let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
        else {
            throw OktaErrorResponse.validation(field, causes: ["\(field): x and y are not a point on P-256"])
        }
        return (kid, key)
    }

    /// The longest a device-signed token may live. A device signs each token for the one request it sends
    /// (the Devices SDK and idflow: `exp` 5 minutes on), and the sandbox remembers every `jti` until `exp`, so a
    /// token meant to live for years would be a replayable credential and a record kept for years.
    static let maximumLifetime: TimeInterval = 300
    /// Leeway for the device's clock running ahead of the org's.
    static let clockSkew: TimeInterval = 60

    /// Checks `nbf ≤ now ≤ exp` (both required) on the sandbox clock, and that the token does not live longer
    /// than `maximumLifetime` (plus `clockSkew`) from now or from `iat`. `nbf` may lie up to `maximumLifetime`
    /// further back: the SDK backdates it by five minutes against clock skew.
    static func checkLifetime(nbf: Double?, exp: Double?, iat: Double?, now: Date) throws(Rejected) {
        guard let nbf, let exp else { throw Rejected("nbf and exp are required") }
        let seconds = now.timeIntervalSince1970
        guard nbf <= seconds else { throw Rejected("the token is not valid yet (nbf)") }
        guard seconds <= exp else { throw Rejected("the token has expired (exp)") }
        let longest = maximumLifetime + clockSkew
        guard exp - seconds <= longest, exp - (iat ?? exp) <= longest, exp - nbf <= maximumLifetime + longest else {
            throw Rejected("the token lives longer than \(Int(maximumLifetime)) seconds (exp)")
        }
    }
}

/// The claims of a challenge response (devices.md §6c).
struct ChallengeResponseClaims: JWTPayload {
    struct Context: Codable, Sendable {
        var userConsent: String?
        var transactionType: String?
        /// The number the user picked from the challenge's `challengeTextItems` (the sandbox's number challenge;
        /// the public device SDKs define no such claim, see `SandboxState.answerPushChallenge`).
        var selectedChallengeTextItem: String?
    }

    var iss: String?
    var aud: String?
    var sub: String?
    var iat: Double?
    var exp: Double?
    var nbf: Double?
    var jti: String?
    var tx: String?
    var nonce: String?
    var methodEnrollmentId: String?
    var keyType: String?
    var amr: [String]?
    var challengeResponseContext: Context?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of a jwt-bearer assertion for a maintenance token (devices.md §7b) and of a
/// client-instance key attestation (§2b); both are `iss`/`aud`/`sub` plus a lifetime and `jti`.
struct DeviceAssertionClaims: JWTPayload {
    var iss: String?
    var aud: String?
    var sub: String?
    var methodEnrollmentId: String?
    var iat: Double?
    var exp: Double?
    var nbf: Double?
    var jti: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of a push challenge the sandbox mints (devices.md §5b; the keys of
/// `push-challenge-jwt-realistic.decoded.json`). Nil optionals are left out of the JWT.
struct PushChallengeClaims: JWTPayload {
    struct Context: Codable, Sendable {
        var showUserLocationInNotification = true
        var clientOS: String
        var clientLocation: String
        var transactionTime: String
        var transactionType: String
        var unusualActivitiesTextItems: [String] = []
        var riskLevel = "NONE"
        /// The numbers of a number challenge, one of them the sign-in page's `correctAnswer` (okta-devices-kotlin
        /// reads this claim as `ChallengeInformation.challengeItems`); absent without one.
        var challengeTextItems: [String]?
    }

    var iss: String
    var aud: String
    var exp: Int
    var iat: Int
    var jti: String
    var nonce: String
    var transactionId: String
    var verificationUri: String
    var keyType: String
    var keyTypes: [String]
    var factorType = "push"
    var appInstanceName: String
    var orgId: String
    var method = "push"
    var kid: String
    var methodEnrollmentId: String
    var authenticatorEnrollmentId: String
    var challengeContext: Context
    var userId: String
    var userVerification: String?
    var ver = 0

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
