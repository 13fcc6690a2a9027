import Foundation

/// The client-credentials grant (RFC 6749 §4.4): a client gets a token for itself, no user involved. Okta's service
/// apps prove themselves with a client assertion (okta-core.md §H1); other servers' clients may send a secret.
struct ClientCredentialsGrantRequest: APIRequest {
    var tokenEndpoint: URL
    var client: ClientCredentials
    var scope: String?

    /// Never retried after the server may have seen it: the assertion's `jti` is spent. (A 429 or a refused
    /// connection are retried, with a fresh assertion and proof.)
    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("grant_type", "client_credentials")]
        if let scope, !scope.isEmpty { fields.append(("scope", scope)) }
        return client.formRequest(tokenEndpoint, fields: fields)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
        if !response.isSuccess, case .oauth(let status, let body, nil) = response.failure() {
            switch body.error {
            case "invalid_scope", "consent_required", "client_credentials_self_scope_requested":
                throw .oauth(
                    status: status, body: body,
                    hint:
                        "ask only for scopes granted to the app (--service-scopes / OKTA_CLIENT_SCOPES, or --scope for login-client); Okta grants okta.* scopes on the app's \"Okta API Scopes\" tab, and never openid to this grant"
                )
            case "unauthorized_client":
                throw .oauth(status: status, body: body, hint: "enable the Client Credentials grant for this app")
            default: break
            }
        }
        return try TokenGrant.decode(response, client: client, hint: "the server refused the client-credentials grant")
    }
}
