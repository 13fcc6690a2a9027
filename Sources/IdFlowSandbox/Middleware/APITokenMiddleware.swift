import Foundation
import Hummingbird

/// Requires `Authorization: SSWS <apiToken>` on the management API and the sandbox admin API.
///
/// `SSWS<token>` without the space is accepted too: some generated Okta SDKs send it that way.
struct APITokenMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let apiToken: String

    static let protectedPrefixes = ["/api/v1/users", "/sandbox/"]

    /// Paths that are deliberately not SSWS-protected because their handler authenticates the caller
    /// itself: the custom-registration endpoints take the registering client's HTTP Basic credentials.
    static let clientAuthenticatedPrefixes = [CustomRegistrationController.pathPrefix]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if Self.protectedPrefixes.contains(where: { path.hasPrefix($0) }) {
            let header = request.headers[.authorization] ?? ""
            guard header.hasPrefix("SSWS"),
                header.dropFirst(4).trimmingCharacters(in: .whitespaces) == apiToken
            else { throw OktaErrorResponse.invalidToken }
        }
        return try await next(request, context)
    }
}
