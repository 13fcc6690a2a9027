import Foundation
import IdFlowFoundation

/// A management call refused for its credentials, as Okta reports it under OAuth (okta-core.md §H5): in the
/// `WWW-Authenticate` challenge, whose body may be empty (H7). Read before the endpoint's own decoding, so a
/// missing scope says which scope the call needs instead of a bare 403.
enum ManagementRefusal {
    /// The challenge of a 401/403 answer to an OAuth-authorized call, nil for anything else.
    static func challenge(_ response: HTTPResponse, _ authorization: ManagementAuthorization) -> BearerChallenge? {
        guard [400, 401, 403].contains(response.status) else { return nil }
        if case .apiToken = authorization { return nil }
        let challenges = BearerChallenge.parse(response.header("WWW-Authenticate") ?? "")
        return challenges.first { $0.error != nil }
    }

    /// Whether the token itself was refused (expired, revoked): worth one new token and one retry.
    static func tokenRefused(_ challenge: BearerChallenge?, status: Int) -> Bool {
        status == 401 && (challenge == nil || challenge?.error == "invalid_token")
    }

    /// The error to report for a refused challenge; nil leaves the endpoint's decoding to explain the answer.
    static func error(_ challenge: BearerChallenge, status: Int, method: String, url: URL) -> IdFlowError? {
        guard let error = challenge.error else { return nil }
        let body = OAuthErrorBody(error: error, errorDescription: challenge.errorDescription)
        switch error {
        case "insufficient_scope":
            let needed = challenge.scope ?? "a scope the token lacks"
            return .oauth(
                status: status, body: body,
                hint:
                    "\(method) \(url.path) needs \(needed): grant it to the service app (Admin Console, the app's Okta API Scopes tab) and ask for it with --service-scopes (env OKTA_CLIENT_SCOPES)"
            )
        case "invalid_dpop_proof", "use_dpop_nonce":
            return .oauth(status: status, body: body, hint: DPoPHint.proofRefused)
        case "invalid_request", "invalid_token":
            return .oauth(
                status: status, body: body,
                hint:
                    "the service app's token was refused; run again (idflow gets a new one), and check --dpop matches the app's DPoP setting"
            )
        default:
            return .oauth(status: status, body: body)
        }
    }
}
