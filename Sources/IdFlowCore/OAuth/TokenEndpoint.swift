import Foundation

/// The token endpoint (RFC 6749 §3.2): code exchange and refresh, with OAuth errors mapped to exit codes.
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
        try await request(
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier)],
            hint: "the code was refused; start the login again (codes are single-use and live 5 minutes)")
    }

    /// Uses a refresh token; `scope` (optional) must be within the originally granted scopes.
    public func refresh(_ refreshToken: String, scope: String?) async throws(IdFlowError) -> TokenResponse {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { fields.append(("scope", scope)) }
        return try await request(fields, hint: "the refresh token is invalid, expired or revoked; log in again with `idflow login-pkce`")
    }

    private func request(_ fields: [(String, String)], hint: String) async throws(IdFlowError) -> TokenResponse {
        let (form, headers) = client.apply(to: fields)
        let response = try await http.send(.form(url, fields: form, headers: headers))
        guard response.isSuccess else {
            let failure = response.failure()
            if case .oauth(let status, let body, nil) = failure, ["invalid_grant", "invalid_client"].contains(body.error) {
                throw .oauth(status: status, body: body, hint: body.error == "invalid_client" ? "check --client-id (and --client-secret-file for a confidential client)" : hint)
            }
            throw failure
        }
        let tokens = try response.decode(TokenResponse.self)
        guard tokens.tokenType.lowercased() == "bearer" else {
            throw .protocolViolation("the token endpoint issued a \(tokens.tokenType) token; idflow handles Bearer tokens only")
        }
        return tokens
    }
}
