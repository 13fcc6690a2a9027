import IdFlowFoundation

/// `userinfo`: the claims the issuer releases for an access token. The token is the credential, so the
/// issuer is discovered without a client id.
public struct FetchUserinfo: Sendable {
    /// The access token.
    public var token: TokenInput

    public init(token: TokenInput) {
        self.token = token
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> JSONValue {
        let accessToken = try token.resolve(kind: .access, context: context)
        let issuer = try await DiscoveredIssuer.discover(context, issuer: try accessToken.issuer(context))
        let endpoint = try issuer.metadata.require(issuer.metadata.userinfoEndpoint, "userinfo")
        // A stored login is presented as stored (a DPoP-bound one with its key); a token given in is taken as Bearer.
        let presentation =
            try accessToken.origin.map { stored throws(IdFlowError) in try AccessTokenPresentation(stored) } ?? .bearer(accessToken.value)
        return try await issuer.http.send(UserinfoRequest(endpoint: endpoint, accessToken: presentation))
    }
}
