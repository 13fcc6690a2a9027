import Foundation
import Hummingbird

/// Requires `Authorization: SSWS <apiToken>` on every route except the public ones listed here:
/// protection is the default, so a route added later (a new `/api/v1/…` or `/sandbox/…` family, or a
/// path nobody registered) is refused without the token rather than served to anyone.
///
/// `SSWS<token>` without the space is accepted too: some generated Okta SDKs send it that way.
///
/// `/api/v1/…` also takes the OAuth access tokens of service apps (`Authorization: Bearer` or `DPoP`, checked by
/// `ManagementAPIAuthorization`); `/sandbox/…` stays SSWS-only, as it is no Okta API.
struct APITokenMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let apiToken: String
    let state: SandboxState

    /// Paths anyone may call, each with everything below it: Authn (state tokens), OAuth/OIDC
    /// (client authentication and the sign-in pages), the well-known documents, the MyAccount
    /// app-authenticator and password APIs (Bearer access tokens; the verify endpoint takes no credentials), and the device
    /// grant's `/activate` sign-in page (the person signs in there), and the Identity Engine's `/idp/idx`
    /// (state handles), and the protected resources (`/resource`, `/org-resource`: Bearer access tokens).
    static let publicPaths = [
        "/api/v1/authn", "/oauth2", "/.well-known", "/idp/myaccount/app-authenticators", "/idp/myaccount/password",
        "/activate", "/idp/idx", "/resource",
        "/org-resource",
    ]

    /// Whether `path` may be called without the API token.
    static func isPublic(_ path: String) -> Bool {
        (publicPaths + clientAuthenticatedPrefixes).contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// Paths that are deliberately not SSWS-protected because their handler authenticates the caller
    /// itself: the custom-registration endpoints take the registering client's HTTP Basic credentials.
    static let clientAuthenticatedPrefixes = ["/oauth/custom-registration"]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if !Self.isPublic(request.uri.path) {
            let header = request.headers[.authorization] ?? ""
            if request.uri.path.hasPrefix("/api/v1/"), ManagementAPIAuthorization.handles(header) {
                try await ManagementAPIAuthorization(state: state).authorize(request)
                return try await next(request, context)
            }
            guard header.hasPrefix("SSWS"),
                ConstantTime.equals(header.dropFirst(4).trimmingCharacters(in: .whitespaces), apiToken)
            else { throw OktaErrorResponse.invalidToken }
        }
        return try await next(request, context)
    }
}
