import HTTPTypes
import Hummingbird

/// `GET {issuer}/v1/logout?id_token_hint=&post_logout_redirect_uri=&state=`: ends the browser
/// session and sends the browser back to the app (or to the org's front page).
struct LogoutController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/logout", .get, use: logout)
    }

    @Sendable func logout(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        let query = request.queryParameters
        guard let hint = query["id_token_hint"], !hint.isEmpty else {
            return AuthorizeWire.errorPage("invalid_request", "The 'id_token_hint' parameter is required.")
        }
        let orgURL = await state.orgURL
        // An expired hint is fine (that is when apps sign out); a forged or foreign one is not.
        let key = try await state.signingKey()
        guard let claims = await key.verified(hint, as: IDTokenClaims.self),
            claims.iss == server.issuer(orgURL: orgURL),
            let client = state.configuration.oauthClients.first(where: { $0.id == claims.aud })
        else {
            return AuthorizeWire.errorPage("invalid_request", "The 'id_token_hint' parameter is invalid.")
        }
        var location = orgURL + "/"
        if let postLogout = query["post_logout_redirect_uri"] {
            guard client.allowsRedirect(to: postLogout) else {
                return AuthorizeWire.errorPage(
                    "invalid_request", "The 'post_logout_redirect_uri' parameter must be a registered redirect URI.")
            }
            location = postLogout
            if let logoutState = query["state"] {
                location += (postLogout.contains("?") ? "&" : "?") + FormParameters.encode([("state", logoutState)])
            }
        }
        await state.endBrowserSessions(
            sid: request.cookies[AuthorizeController.sessionCookie]?.value, userId: claims.sub)
        return .redirect(
            to: location,
            headers: [.setCookie: "\(AuthorizeController.sessionCookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"])
    }
}
