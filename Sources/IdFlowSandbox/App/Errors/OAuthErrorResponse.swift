import HTTPTypes
import Hummingbird

/// An OAuth 2.0 error in RFC 6749's shape, `{"error","error_description"}`, as Okta's `/v1/token`,
/// `/v1/introspect` and `/v1/revoke` send it.
struct OAuthErrorResponse: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let error: String
    let errorDescription: String
    /// Extra headers (`WWW-Authenticate` on `/v1/userinfo`).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status = .badRequest, _ error: String, _ description: String) {
        self.status = status
        self.error = error
        self.errorDescription = description
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.json(
            ["error": .string(error), "error_description": .string(errorDescription)], status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}
