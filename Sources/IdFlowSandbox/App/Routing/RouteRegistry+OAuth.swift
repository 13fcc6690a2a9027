import HTTPTypes
import Hummingbird

/// The handler shape of an OAuth endpoint: it also learns which authorization server was addressed.
typealias OAuthHandler = @Sendable (Request, SandboxRequestContext, HostedAuthorizationServer) async throws -> Response

extension RouteRegistry {
    /// Registers `suffix` for the org AS (`/oauth2/v1…`) and for custom ones (`/oauth2/{asId}/v1…`);
    /// an unknown `asId` is 404 E0000007 (AuthorizationServer).
    func oauth(_ suffix: String, _ method: HTTPRequest.Method, takesUserToken: Bool = false, use handler: @escaping OAuthHandler) {
        on("/oauth2/v1\(suffix)", method, takesUserToken: takesUserToken) { request, context in
            try await handler(request, context, .org)
        }
        on("/oauth2/:asId/v1\(suffix)", method, takesUserToken: takesUserToken) { request, context in
            try await handler(request, context, try HostedAuthorizationServer(id: context.parameters.get("asId")))
        }
    }
}
