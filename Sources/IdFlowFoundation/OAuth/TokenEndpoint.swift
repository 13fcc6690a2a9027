import Foundation

/// The token endpoint (RFC 6749 §3.2) of one server for one client: a facade that builds each grant's
/// request value and sends it, so callers hold the endpoint and credentials once.
public struct TokenEndpoint: Sendable {
    public var http: HTTPClient
    public var url: URL
    public var client: ClientCredentials

    public init(http: HTTPClient, url: URL, client: ClientCredentials) {
        self.http = http
        self.url = url
        self.client = client
    }

    /// Exchanges an authorization code, proving possession of the PKCE verifier.
    public func exchange(code: String, redirectURI: String, verifier: String) async throws(IdFlowError) -> TokenResponse {
        try await http.send(
            AuthorizationCodeTokenRequest(tokenEndpoint: url, client: client, code: code, redirectURI: redirectURI, verifier: verifier))
    }

    /// Uses a refresh token; `scope` (optional) must be within the originally granted scopes.
    public func refresh(_ refreshToken: String, scope: String?) async throws(IdFlowError) -> TokenResponse {
        try await http.send(RefreshTokenRequest(tokenEndpoint: url, client: client, refreshToken: refreshToken, scope: scope))
    }
}
