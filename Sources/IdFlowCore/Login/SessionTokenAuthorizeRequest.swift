import Foundation
import IdFlowFoundation

/// Okta's headless `/authorize`: an Authn session token redeemed with `prompt=none` for an authorization code,
/// without a browser.
struct SessionTokenAuthorizeRequest: APIRequest {
    var authorization: AuthorizationRequest
    var sessionToken: Secret

    /// Not retried: the session token is single-use, so a second try after a lost answer could only fail.
    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var headless = authorization
        headless.extraParameters += [("sessionToken", sessionToken.value), ("prompt", "none"), ("response_mode", "query")]
        return HTTPRequest(method: "GET", url: headless.url, headers: ["Accept": "text/html"], isIdempotent: false)
    }

    /// Returns the code from the 302's `Location`, read without following it: the redirect URI may be a custom
    /// scheme no HTTP client can open. Anything but a redirect means the server wants a person (a sign-in page),
    /// which with `prompt=none` only happens when the client or redirect URI is wrong.
    func decode(_ response: HTTPResponse) throws(IdFlowError) -> String {
        guard response.isRedirect, let location = response.header("Location") else {
            if response.status >= 500 { throw response.failure() }
            throw .rejected(
                "the authorization endpoint answered HTTP \(response.status) instead of redirecting: \(response.snippet)",
                hint: "check --client-id and that --redirect-uri is registered for the app exactly")
        }
        return try AuthorizationResponse.code(from: location, expectedState: authorization.state)
    }
}
