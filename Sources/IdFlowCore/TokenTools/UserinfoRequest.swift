import Foundation
import IdFlowFoundation

/// The claims the issuer releases for an access token (OIDC Core §5.3).
struct UserinfoRequest: APIRequest {
    var endpoint: URL
    var accessToken: AccessTokenPresentation

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        accessToken.present(.get(endpoint))
    }

    /// A refused token says so with the server's challenge, which names the reason (expired, revoked, scope).
    func decode(_ response: HTTPResponse) throws(IdFlowError) -> JSONValue {
        if response.status == 401 {
            let challenge = response.header("WWW-Authenticate") ?? "Bearer"
            throw .authentication("the access token was refused (\(challenge))", hint: "refresh it with `idflow refresh` or log in again")
        }
        return try response.json()
    }
}
