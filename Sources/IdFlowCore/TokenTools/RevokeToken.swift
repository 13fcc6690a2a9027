import IdFlowFoundation

/// `token revoke` (RFC 7009); revoking a refresh token ends its whole family on Okta.
public struct RevokeToken: Sendable {
    public var token: TokenInput
    /// Which token it is: sent as `token_type_hint`, and picks the stored one.
    public var kind: TokenKind
    public var clientSecret: Secret?

    public init(token: TokenInput, kind: TokenKind = .refresh, clientSecret: Secret? = nil) {
        self.token = token
        self.kind = kind
        self.clientSecret = clientSecret
    }

    /// What `token revoke` prints: the kind revoked, as OAuth names it (the server never says whether it knew the token).
    public struct Output: Encodable, Sendable, Equatable {
        public var revoked: String
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let resolved = try token.resolve(kind: kind, context: context)
        let server = try await resolved.server(context, clientSecret: clientSecret)
        try await server.revoke(resolved.value, kind: kind)
        return Output(revoked: kind.rawValue)
    }
}
