import Foundation
import IdFlowFoundation

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

    /// The id of the custom authorization server (`default` among them) whose token endpoint this is
    /// (`{org}/oauth2/{id}/v1/token`); nil for the org's own (`{org}/oauth2/v1/token`) or another provider's.
    var customServerID: String? {
        let parts = tokenEndpoint.pathComponents.filter { $0 != "/" }
        guard let index = parts.firstIndex(of: "oauth2"), index + 1 < parts.count, parts[index + 1] != "v1" else { return nil }
        return parts[index + 1]
    }

    /// The org URL, when okta.* scopes were asked of a custom authorization server: only the org's own grants them,
    /// so its `invalid_scope` is fixed by `--issuer <org URL>`, not by another scope.
    var customServerAskedForOktaScopes: String? {
        guard customServerID != nil, (scope ?? "").split(separator: " ").contains(where: { $0.hasPrefix("okta.") }) else { return nil }
        return Origin(tokenEndpoint)?.description
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
        if !response.isSuccess, case .oauth(let status, let body, nil) = response.failure() {
            switch body.error {
            case "invalid_scope" where customServerAskedForOktaScopes != nil:
                let org = customServerAskedForOktaScopes ?? ""
                throw .oauth(
                    status: status, body: body,
                    hint:
                        "okta.* scopes are granted only by the org's authorization server, not by \(org)/oauth2/\(customServerID ?? ""): pass --issuer \(org) (the org URL)"
                )
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
