import Crypto
import Foundation
import URINormalization

/// `private_key_jwt` (RFC 7523 §2.2) as Okta's org authorization server checks it (okta-core.md §H1): each
/// failure is 401 `invalid_client` with the description Okta's error catalogue gives for it. The client's
/// `ClientAssertion` signs assertions; this side only verifies them.
enum ClientAssertionVerifier {
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// The longest an assertion may live from now.
    static let maximumLifetime: TimeInterval = 3600
    /// Leeway for the client's clock running ahead of the sandbox's.
    static let clockSkew: TimeInterval = 60

    static func invalid(_ description: String) -> OAuthErrorResponse {
        OAuthErrorResponse(.unauthorized, "invalid_client", description)
    }

    static let invalidType = OAuthErrorResponse(.badRequest, "invalid_request", "The client_assertion_type is invalid.")
    static let unparsable = invalid("The parsing of the client_assertion failed.")
    static let badSignature = invalid("The client_assertion signature is invalid.")
    static let badKeyID = invalid("The client_assertion JWT kid is invalid.")
    static let badAlgorithm = invalid("The client_assertion JWT signature algorithm is invalid.")
    static let unknownIssuer = invalid("The issuer claim for client_assertion is not a valid client_id.")
    static let unknownSubject = invalid("The subject claim for client_assertion is not a valid client_id.")
    static let wrongAudience = invalid("The audience claim for client_assertion must be the endpoint invoked for the request.")
    static let missingExpiry = invalid("The client_assertion must contain the 'exp' claim as seconds since epoch.")
    static let expired = invalid("The client_assertion token is expired.")
    static let tooLong = invalid("The client_assertion token has an expiration too far into the future.")
    static let issuedLater = invalid("The client_assertion token must be issued before the current time.")
    static let replayed = invalid("The client_assertion token has already been used.")

    /// The claims of an assertion that verifies with a key of the service app it names, for `tokenURLs` (the
    /// token endpoint at the org URL and its aliases, normalised: `SandboxState.endpointURLs(path:)`), on the
    /// sandbox clock `now`. Replay is the caller's to check, with the returned `jti` and `exp`.
    static func verify(
        _ assertion: String, registry: ServiceAppRegistry, tokenURLs: Set<String>, now: Date
    ) async throws(OAuthErrorResponse) -> (app: ServiceApp, jti: String?, expiresAt: Date) {
        guard let header = CompactJWT.header(of: assertion), let payload = Self.payload(of: assertion) else { throw unparsable }
        guard let algorithm = header["alg"] as? String, ClientPublicKey.algorithms.contains(algorithm) else { throw badAlgorithm }
        guard let issuer = payload["iss"] as? String, let app = registry.app(issuer) else { throw unknownIssuer }
        guard payload["sub"] as? String == issuer else { throw unknownSubject }
        let kid = header["kid"] as? String
        let key: ClientPublicKey
        if let kid {
            guard
                let named = app.keys.first(where: { $0.kid == kid }) ?? (app.keys.count == 1 && app.keys[0].kid == nil ? app.keys[0] : nil)
            else { throw badKeyID }
            key = named
        } else {
            guard app.keys.count == 1 else { throw badKeyID }
            key = app.keys[0]
        }
        guard key.accepts(algorithm: algorithm) else { throw badAlgorithm }
        let claims: ClientAssertionClaims
        do {
            claims = try await key.verify(assertion, algorithm: algorithm, as: ClientAssertionClaims.self)
        } catch {
            throw badSignature
        }
        guard let audiences = claims.aud?.values,
            audiences.contains(where: { URINormalization.normalized($0).map(tokenURLs.contains) ?? false })
        else { throw wrongAudience }
        guard let exp = claims.exp else { throw missingExpiry }
        let seconds = now.timeIntervalSince1970
        guard exp > seconds else { throw expired }
        guard exp - seconds <= maximumLifetime + clockSkew else { throw tooLong }
        if let iat = claims.iat, iat - seconds > clockSkew { throw issuedLater }
        return (app, claims.jti, Date(timeIntervalSince1970: exp))
    }

    /// What the replay check remembers an assertion by: its `jti`, or, since Okta makes `jti` optional
    /// (okta-core.md §H1), a hash of the whole assertion, so one without a `jti` is still single-use instead of
    /// reusable for its hour. A `jti` of its own could not collide with the hash's form.
    static func replayID(jti: String?, assertion: String) -> String {
        if let jti { return "jti:" + jti }
        return "sha256:" + Data(SHA256.hash(data: Data(assertion.utf8))).base64URLEncoded
    }

    /// The payload as JSON, read before the signature is checked only to find the client.
    private static func payload(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[1])) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
