import Foundation
import IdFlowFoundation

/// `token verify`: a JWT's signature against the issuer's JWKS, its `iss` and expiry, and `aud` when asked.
/// Anyone may check a token, so this discovers the issuer without a client id.
public struct VerifyToken: Sendable {
    public var token: TokenInput
    public var kind: TokenKind
    /// Required audience (e.g. `api://default` for an Okta access token, the client id for an ID token).
    public var audience: String?

    public init(token: TokenInput, kind: TokenKind = .access, audience: String? = nil) {
        self.token = token
        self.kind = kind
        self.audience = audience
    }

    /// Named as `token inspect` names the same facts (`format`, `expiresAt`, `expired`, `issuedAt`,
    /// `signatureVerified`), so one `jq` filter reads either; `valid` stays for the scripts written against it.
    public struct Output: Encodable, Sendable {
        /// Always true: a token that fails a check is refused with exit 13, never printed.
        public var valid: Bool
        /// Always true here, as `token inspect` says false: the signature was checked against the issuer's JWKS.
        public var signatureVerified: Bool
        public var format = "jwt"
        public var issuer: String
        public var header: JSONValue
        public var claims: JSONValue
        public var expiresAt: String?
        /// False once verified by this machine's clock (an expired token is refused), kept so the shape is inspect's.
        public var expired: Bool?
        /// When it expires and was issued, by this machine's clock.
        public var expiresIn: String?
        public var expiresInSeconds: Int?
        public var issuedAt: String?
        public var issuedAgo: String?
        public var issuedAgoSeconds: Int?
        /// The same by the issuer's clock, with the skew; null when its `Date` could not be read.
        @NullWhenAbsent public var serverClock: ServerClock.Reading? = nil
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let resolved = try token.resolve(kind: kind, context: context)
        let value = resolved.value
        let issuer = try await DiscoveredIssuer.discover(context, issuer: try resolved.issuer(context))
        let now = context.now()
        let clock = await ServerClock.measure(context, issuer: issuer.issuer)
        let claims: JSONValue
        do throws(IdFlowError) {
            claims = try await issuer.validator.validate(value, policy: policy(issuer, at: now))
        } catch {
            throw await ServerClock.explain(error, clock: clock, now: now) { (time: Date) throws(IdFlowError) in
                _ = try await issuer.validator.validate(value, policy: policy(issuer, at: time))
            }
        }
        // Decoded only once validated: a malformed or forged token is the validator's to refuse (exit 13).
        let jwt = try DecodedJWT(value)
        let local = TokenTimes(jwt, at: now)
        return Output(
            valid: true, signatureVerified: true, issuer: issuer.metadata.issuer, header: jwt.header, claims: claims,
            expiresAt: jwt.expiresAt.map(ISO8601.string), expired: jwt.expiresAt.map { $0 < now }, expiresIn: local.expiresIn,
            expiresInSeconds: local.expiresInSeconds, issuedAt: jwt.issuedAt.map(ISO8601.string), issuedAgo: local.issuedAgo,
            issuedAgoSeconds: local.issuedAgoSeconds,
            serverClock: clock.map { ServerClock.Reading(clock: $0, times: TokenTimes(jwt, at: $0.serverTime(now))) })
    }

    private func policy(_ issuer: DiscoveredIssuer, at time: Date) -> TokenValidationPolicy {
        TokenValidationPolicy(
            issuer: issuer.metadata.issuer, audience: audience, nonce: .notInThisGrant(.standaloneVerification), accessToken: nil, now: time
        )
    }
}
