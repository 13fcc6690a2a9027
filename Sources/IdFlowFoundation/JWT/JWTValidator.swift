import Foundation
import JWTKit

/// Verifies a JWT (an ID token) issued by an OpenID provider: the signature against the issuer's published keys,
/// then the claims against a ``TokenValidationPolicy``.
///
/// jwt-kit does the key import and the signature maths; the choice of algorithm and key, and every claim check,
/// happen here so each failure can say exactly what was wrong. jwt-kit's own claim verification never runs:
/// only `JWTAlgorithm.verify(_:signs:)` is called, on the signing input.
public struct JWTValidator: Sendable {
    public let keys: any SigningKeySource

    public init(keys: any SigningKeySource) {
        self.keys = keys
    }

    /// Verifies the signature against the key set (refetching the set ONCE if `kid` is unknown), then the claims.
    /// Returns the verified claims. Every failure of the token is `.security(message, hint:)` naming what failed;
    /// failing to fetch the keys keeps its own error (network, server).
    public func validate(_ token: String, policy: TokenValidationPolicy) async throws(IdFlowError) -> JSONValue {
        let decoded: DecodedJWT
        do {
            decoded = try DecodedJWT(token)
        } catch {
            throw .security(
                "the token is not a well-formed JWT: \(error.message)",
                hint: "the issuer or something in between sent a damaged token; log in again")
        }
        let algorithm = try Self.checkHeader(decoded, policy: policy)
        let key = try await selectKey(keyID: decoded.keyID, algorithm: algorithm)
        try await Self.verifySignature(decoded, key: key, algorithm: algorithm)
        try Self.checkClaims(decoded.claims, algorithm: algorithm, policy: policy)
        return decoded.claims
    }

    /// The OIDC `at_hash` (or `c_hash`) of `value` for a token signed with `algorithm`: base64url of the left-most half
    /// of its SHA-2 hash (SHA-256 for *256, SHA-384 for *384, SHA-512 for *512); nil for an algorithm idflow does not verify.
    public static func leftHalfHash(of value: String, algorithm: String) -> String? {
        guard let algorithm = SignatureAlgorithm(rawValue: algorithm) else { return nil }
        let digest = algorithm.digest(Data(value.utf8))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    // MARK: - Header

    /// Decides the algorithm before any key is looked at, so a token cannot choose how it is checked.
    package static func checkHeader(_ token: DecodedJWT, policy: TokenValidationPolicy) throws(IdFlowError) -> SignatureAlgorithm {
        guard let alg = token.algorithm else {
            throw .security(
                "the token header has no alg", hint: "a JWT must name its signature algorithm; the issuer sent a malformed token")
        }
        if alg.lowercased() == "none" {
            throw .security("alg none is never accepted", hint: "an unsigned token proves nothing; it did not come from the issuer as sent")
        }
        if alg.uppercased().hasPrefix("HS") {
            throw .security(
                "alg \(alg) is not allowed",
                hint:
                    "HMAC tokens are signed with a shared secret a native app cannot hold; the issuer must sign with its published RSA or EC keys (Okta uses RS256)"
            )
        }
        guard policy.allowedAlgorithms.contains(alg) else {
            throw .security("alg \(alg) is not allowed", hint: "allowed: \(policy.allowedAlgorithms.sorted().joined(separator: ", "))")
        }
        guard let algorithm = SignatureAlgorithm(rawValue: alg) else {
            throw .security(
                "alg \(alg) is not supported",
                hint: "idflow verifies \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let critical = token.header["crit"] {
            let names = critical.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? "?"
            throw .security(
                "the token header marks extensions [\(names)] as critical, which idflow does not understand",
                hint: "RFC 7515 §4.1.11 requires rejecting such a token")
        }
        return algorithm
    }

    // MARK: - Key selection

    private enum Match {
        case found(IssuerKey)
        case missing
        case unusable(String)
    }

    /// Finds the key that must have signed the token, fetching the set again once when it is not there
    /// (the issuer may have rotated its keys since the set was cached).
    package func selectKey(keyID: String?, algorithm: SignatureAlgorithm) async throws(IdFlowError) -> IssuerKey {
        var refetched = false
        while true {
            let data = try await keys.keySet(refresh: refetched)
            let set = try JSONWebKeySet(data: data, source: "the issuer's jwks_uri")
            switch Self.match(set, keyID: keyID, algorithm: algorithm) {
            case .found(let key):
                return key
            case .unusable(let reason):
                throw .security(
                    reason, hint: "the issuer's keys do not fit the token's alg \(algorithm.rawValue); the token cannot be trusted")
            case .missing where !refetched:
                refetched = true
            case .missing:
                if let keyID {
                    throw .security(
                        "no key with kid \(keyID) in the issuer's JWKS (after refetch)",
                        hint: "the token was not signed by this issuer, or it comes from another authorization server; check the issuer URL"
                    )
                }
                throw .security(
                    "the token has no kid and the issuer's JWKS has no key for alg \(algorithm.rawValue) (after refetch)",
                    hint: "the token was not signed by this issuer; check the issuer URL")
            }
        }
    }

    private static func match(_ set: JSONWebKeySet, keyID: String?, algorithm: SignatureAlgorithm) -> Match {
        let keys = set.keys.map(IssuerKey.init)
        if let keyID {
            let named = keys.filter { $0.keyID == keyID }
            guard let first = named.first else { return .missing }
            let usable = named.filter { $0.problem(verifying: algorithm) == nil }
            switch usable.count {
            case 1: return .found(usable[0])
            case 0: return .unusable(first.problem(verifying: algorithm) ?? "the key kid \(keyID) cannot verify alg \(algorithm.rawValue)")
            default:
                return .unusable(
                    "kid \(keyID) names \(usable.count) keys for alg \(algorithm.rawValue) in the issuer's JWKS; cannot tell which signed the token"
                )
            }
        }
        // Without a kid the key must be unambiguous: trying every key would let any published key vouch for the token.
        let usable = keys.filter { $0.problem(verifying: algorithm) == nil }
        switch usable.count {
        case 0: return .missing
        case 1: return .found(usable[0])
        default:
            return .unusable(
                "the token has no kid and the issuer's JWKS has \(usable.count) keys for alg \(algorithm.rawValue); cannot tell which signed it"
            )
        }
    }

    // MARK: - Signature

    package static func verifySignature(_ token: DecodedJWT, key: IssuerKey, algorithm: SignatureAlgorithm) async throws(IdFlowError) {
        let identifier = JWKIdentifier(string: key.keyID ?? "idflow-single-key")
        let verifier: any JWTAlgorithm
        do {
            guard let jwk = key.jwk(for: algorithm, identifier: identifier) else {
                throw JWTError.invalidJWK(reason: "unsupported algorithm")
            }
            // A collection holding this one key: jwt-kit turns n/e or x/y into a public key pinned to `algorithm`.
            let collection = JWTKeyCollection()
            try await collection.add(jwk: jwk)
            verifier = try await collection.getKey(for: identifier, alg: algorithm.rawValue)
        } catch {
            throw .security(
                "the issuer's key \(key.name) cannot be used for alg \(algorithm.rawValue): \(describe(error))",
                hint: "the issuer's JWKS holds a malformed or too small key")
        }
        guard verifier.name == algorithm.rawValue else {
            throw .internalFailure("jwt-kit gave a \(verifier.name) verifier for alg \(algorithm.rawValue)")
        }
        let valid: Bool
        do {
            valid = try verifier.verify(token.signature, signs: Array(token.signingInput.utf8))
        } catch {
            valid = false
        }
        guard valid else {
            throw .security(
                "signature does not verify with the issuer's key \(key.name) (alg \(algorithm.rawValue))",
                hint: "the token was altered or not signed by this issuer; do not use it")
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let jwtError = error as? JWTError {
            return jwtError.reason ?? jwtError.errorType.description
        }
        return String(describing: error)
    }

    // MARK: - Claims

    static func checkClaims(_ claims: JSONValue, algorithm: SignatureAlgorithm, policy: TokenValidationPolicy) throws(IdFlowError) {
        guard let issuer = claims["iss"]?.stringValue else {
            throw .security("iss is missing, expected \(policy.issuer)", hint: "the token does not say who issued it")
        }
        guard issuer == policy.issuer else {
            throw .security(
                "iss is \(issuer), expected \(policy.issuer)",
                hint: "check the issuer (org URL and authorization server) idflow is configured with")
        }

        if let audience = policy.audience {
            let audiences: [String]
            switch claims["aud"] {
            case .string(let single)?:
                audiences = [single]
            case .array(let members)? where members.allSatisfy({ $0.stringValue != nil }):
                audiences = members.compactMap(\.stringValue)
            case nil:
                throw .security("aud is missing, expected \(audience)", hint: "the token does not say whom it is for")
            default:
                throw .security("aud is neither a string nor an array of strings", hint: "the issuer sent a malformed token")
            }
            guard audiences.contains(audience) else {
                throw .security(
                    "aud [\(audiences.joined(separator: ", "))] does not contain \(audience)",
                    hint: "the token was issued to another client; check --client-id")
            }
            if let presenter = claims["azp"], presenter.stringValue != audience {
                throw .security(
                    "azp is \(presenter.stringValue ?? "not a string"), expected \(audience)",
                    hint: "the token was issued to another client; check --client-id")
            }
        }

        let now = policy.now.timeIntervalSince1970
        let skew = policy.clockSkew.inSeconds
        let window = "(now \(timestamp(now)), \(format(skew)) s skew allowed)"
        guard let expiry = try numericDate(claims, "exp") else {
            throw .security("exp is missing", hint: "an ID token must carry its expiry; the issuer sent a malformed token")
        }
        if now > expiry + skew {
            throw .security(
                "token expired at \(timestamp(expiry)) \(window)", hint: "log in again; if the token is fresh, check this machine's clock")
        }
        if let notBefore = try numericDate(claims, "nbf"), notBefore > now + skew {
            throw .security("token is not valid before \(timestamp(notBefore)) \(window)", hint: "check this machine's clock")
        }
        guard let issuedAt = try numericDate(claims, "iat") else {
            throw .security("iat is missing", hint: "an ID token must say when it was issued; the issuer sent a malformed token")
        }
        if issuedAt > now + skew {
            throw .security("iat is in the future: \(timestamp(issuedAt)) \(window)", hint: "check this machine's clock")
        }

        if case .mustEqual(let expected) = policy.nonce {
            guard let nonce = claims["nonce"]?.stringValue else {
                throw .security(
                    "nonce is missing, expected the one sent with the authorization request",
                    hint: "the ID token does not belong to this login; start it again")
            }
            guard nonce == expected else {
                throw .security(
                    "nonce does not match the one sent with the authorization request",
                    hint: "the ID token does not belong to this login (a replayed or injected token); start it again")
            }
        }

        if let accessToken = policy.accessToken, let claimed = claims["at_hash"] {
            guard claimed.stringValue == leftHalfHash(of: accessToken, algorithm: algorithm.rawValue) else {
                throw .security("at_hash does not match the access token", hint: "the access token was swapped or altered; do not use it")
            }
        }
        if let deviceSecret = policy.deviceSecret, let claimed = claims["ds_hash"] {
            guard claimed.stringValue == leftHalfHash(of: deviceSecret, algorithm: algorithm.rawValue) else {
                throw .security(
                    "ds_hash in the ID token does not match the device secret",
                    hint: "the device secret was swapped or altered; sign in again")
            }
        }
    }

    /// A NumericDate claim in seconds since 1970; nil when absent, `.security` when present but not a number.
    private static func numericDate(_ claims: JSONValue, _ name: String) throws(IdFlowError) -> Double? {
        switch claims[name] {
        case nil: return nil
        case .number(let value)? where DecodedJWT.isNumericDate(value): return value
        case .number?: throw .security("\(name) is not a date before the year 10000", hint: "the issuer sent a malformed token")
        default: throw .security("\(name) is not a number of seconds since 1970", hint: "the issuer sent a malformed token")
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }

    private static func timestamp(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle())
    }
}
