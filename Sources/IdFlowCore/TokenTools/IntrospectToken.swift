import IdFlowFoundation

/// `token introspect` (RFC 7662): the server's view of a token, active or not, as the server wrote it.
public struct IntrospectToken: Sendable {
    public var token: TokenInput
    /// Which token it is: sent as `token_type_hint`, and picks the stored one.
    public var kind: TokenKind
    public var clientSecret: Secret?

    public init(token: TokenInput, kind: TokenKind = .access, clientSecret: Secret? = nil) {
        self.token = token
        self.kind = kind
        self.clientSecret = clientSecret
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> JSONValue {
        let resolved = try token.resolve(kind: kind, context: context)
        let server = try await resolved.server(context, clientSecret: clientSecret)
        let endpoint = try server.metadata.require(server.metadata.introspectionEndpoint, "introspection")
        return try await server.http.send(
            IntrospectionRequest(endpoint: endpoint, client: server.client, token: resolved.value, hint: kind))
    }
}
