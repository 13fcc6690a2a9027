import Foundation
import IdFlowFoundation

/// One call to a protected resource (`idflow api`): the user's method, headers and body, and the access token
/// when the URL is on the token's origin. The answer is returned whatever its status: what a status means is
/// `CallResource`'s decision (refresh and retry, follow a redirect, or fail with the status's exit code).
struct ResourceRequest: APIRequest {
    var method: String
    var url: URL
    /// The user's headers (`-H`), `Accept` included.
    var headers: [String: String]
    var body: Data?
    /// How the token is presented; nil sends the request without one (nothing stored, or another origin).
    var presentation: AccessTokenPresentation?

    /// Retried as every request is (`HTTPRequest`'s idempotency by method): a 503 or a broken connection only
    /// for safe methods, a 429 or a refused connection for any.
    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        return presentation?.present(request) ?? request
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> HTTPResponse {
        response
    }

    /// The request a redirect of `status` to `location` asks for (RFC 9110 §15.4): 303, and 301/302 after a POST,
    /// become a GET without a body, as browsers and curl do; 307 and 308 repeat the method and body. The token
    /// goes only where `tokenOrigin` is, and the user's own credential headers stay on the origin they were
    /// given for: once a redirect leaves it they are dropped for good, as curl drops them.
    func redirected(status: Int, to location: URL, tokenOrigin: Origin?, token: AccessTokenPresentation?) -> ResourceRequest {
        var next = self
        next.url = location
        if status == 303 || ((status == 301 || status == 302) && method == "POST") {
            next.method = status == 303 && method == "HEAD" ? "HEAD" : "GET"
            next.body = nil
            next.headers = next.headers.filter { $0.key.lowercased() != "content-type" }
        }
        if Origin(location) != Origin(url) {
            next.headers = next.headers.filter { !Self.credentialHeaders.contains($0.key.lowercased()) }
        }
        next.presentation = Origin(location) == tokenOrigin ? token : nil
        return next
    }

    /// Headers that carry a credential (lowercased): what curl withholds from another origin on a redirect
    /// (`Authorization`, `Cookie`, `Proxy-Authorization`), and a DPoP proof, which names the origin it was made for.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization", "dpop"]
}
