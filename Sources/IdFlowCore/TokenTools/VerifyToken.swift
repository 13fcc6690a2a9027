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
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let resolved = try token.resolve(kind: kind, context: context)
        let value = resolved.value
        let issuer = try await DiscoveredIssuer.discover(context, issuer: try resolved.issuer(context))
        let policy = TokenValidationPolicy(
            issuer: issuer.metadata.issuer, audience: audience, nonce: .notInThisGrant(.standaloneVerification), accessToken: nil,
            now: context.now())
        let claims = try await issuer.validator.validate(value, policy: policy)
        return Output(valid: true, issuer: issuer.metadata.issuer, header: try DecodedJWT(value).header, claims: claims)
    }
}
