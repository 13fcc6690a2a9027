import Foundation

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

    public struct Output: Encodable, Sendable {
        public var valid: Bool
        public var issuer: String
        public var header: JSONValue
        public var claims: JSONValue
        /// When it expires and was issued, by this machine's clock.
        public var expiresIn: String?
        public var expiresInSeconds: Int?
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
            valid: true, issuer: issuer.metadata.issuer, header: jwt.header, claims: claims, expiresIn: local.expiresIn,
            expiresInSeconds: local.expiresInSeconds, issuedAgo: local.issuedAgo, issuedAgoSeconds: local.issuedAgoSeconds,
            serverClock: clock.map { ServerClock.Reading(clock: $0, times: TokenTimes(jwt, at: $0.serverTime(now))) })
    }

    private func policy(_ issuer: DiscoveredIssuer, at time: Date) -> TokenValidationPolicy {
        TokenValidationPolicy(
            issuer: issuer.metadata.issuer, audience: audience, nonce: .notInThisGrant(.standaloneVerification), accessToken: nil, now: time
        )
    }
}
