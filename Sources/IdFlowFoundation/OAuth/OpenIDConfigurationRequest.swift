import Foundation

/// Fetches the discovery document at `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0).
package struct OpenIDConfigurationRequest: APIRequest {
    var issuer: URL

    package init(issuer: URL) {
        self.issuer = issuer
    }

    package var url: URL { issuer.appendingPathComponent(".well-known/openid-configuration") }

    package func httpRequest() throws(IdFlowError) -> HTTPRequest {
        .get(url)
    }

    /// Accepts only a document whose `issuer` equals the one asked for exactly (OIDC Discovery §4.3), and whose
    /// endpoints are https (or loopback http): every later request, with its tokens and secrets, goes where it says.
    package func decode(_ response: HTTPResponse) throws(IdFlowError) -> OpenIDConfiguration {
        guard response.status != 404 else {
            throw .notFound(
                "no discovery document at \(url.absoluteString)", hint: "check --issuer (Okta: {org}/oauth2/default or the org URL)")
        }
        let configuration = try response.decode(OpenIDConfiguration.self)
        guard configuration.issuer == issuer.absoluteString else {
            throw .security(
                "the discovery document names the issuer \(configuration.issuer), not \(issuer.absoluteString)",
                hint: "use exactly the issuer the provider publishes as --issuer")
        }
        for endpoint in [configuration.authorizationEndpoint, configuration.tokenEndpoint, configuration.jwksURI] {
            try TransportSecurity.check(endpoint)
        }
        return configuration
    }
}
