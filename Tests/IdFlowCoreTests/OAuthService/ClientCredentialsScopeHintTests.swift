import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// `login-client --scope okta.users.read` against a custom authorization server (the default one among them) gets
/// `invalid_scope`: only the org's own server grants okta.* scopes, so the hint names `--issuer <org URL>`.
struct ClientCredentialsScopeHintTests {
    static let refusal = #"{"error":"invalid_scope","error_description":"One or more scopes are not configured."}"#

    static func hint(tokenEndpoint: String, scope: String) -> String? {
        let url = URL(string: tokenEndpoint)!
        let request = ClientCredentialsGrantRequest(
            tokenEndpoint: url, client: ClientCredentials(clientID: "0oaservice", secret: Secret("s3cret")), scope: scope)
        return Built.error { () throws(IdFlowError) in try request.decode(Built.response(400, refusal, url: url)) }?.hint
    }

    @Test func oktaScopesAskedOfTheDefaultServerNameTheOrgAsIssuer() {
        let hint = Self.hint(tokenEndpoint: "https://x.okta.com/oauth2/default/v1/token", scope: "okta.users.read")
        #expect(hint?.contains("--issuer https://x.okta.com") == true, "\(hint ?? "")")
        #expect(hint?.contains("only by the org's authorization server") == true)
    }

    @Test func otherRefusedScopesKeepTheScopeHint() {
        for (endpoint, scope) in [
            ("https://x.okta.com/oauth2/default/v1/token", "api:read"),
            ("https://x.okta.com/oauth2/v1/token", "okta.users.read"),
        ] {
            let hint = Self.hint(tokenEndpoint: endpoint, scope: scope)
            #expect(hint?.contains("--issuer") == false, "\(endpoint) \(scope): \(hint ?? "")")
            #expect(hint?.contains("ask only for scopes granted to the app") == true)
        }
    }
}
