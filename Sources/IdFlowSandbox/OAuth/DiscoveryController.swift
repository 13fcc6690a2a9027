import Hummingbird

/// Discovery documents and the JWKS of both authorization servers.
struct DiscoveryController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.get("/.well-known/openid-configuration") { _, _ in
            .json(DiscoveryWire.openIDConfiguration(.org, orgURL: await state.orgURL))
        }
        routes.get("/oauth2/:asId/.well-known/openid-configuration") { _, context in
            let server = try HostedAuthorizationServer(id: context.parameters.get("asId"))
            return .json(DiscoveryWire.openIDConfiguration(server, orgURL: await state.orgURL))
        }
        routes.get("/oauth2/:asId/.well-known/oauth-authorization-server") { _, context in
            let server = try HostedAuthorizationServer(id: context.parameters.get("asId"))
            return .json(DiscoveryWire.authorizationServerMetadata(server, orgURL: await state.orgURL))
        }
        routes.oauth("/keys", .get, use: keys)
    }

    /// `{"keys":[…]}` with the one RS256 key; cacheable, as Okta's is.
    @Sendable func keys(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        let key = try await state.signingKey()
        var response = Response.json(["keys": [key.jwk]])
        response.headers[.cacheControl] = "max-age=3600, must-revalidate"
        return response
    }
}
