import Foundation

/// Exchanges an authorization code at the token endpoint (RFC 6749 §4.1.3), proving possession of the PKCE verifier.
struct AuthorizationCodeTokenRequest: APIRequest {
    var tokenEndpoint: URL
    package var client: ClientCredentials
    var code: String
    package var redirectURI: String
    var verifier: String

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenGrant.request(
            tokenEndpoint, client: client,
            fields: [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier)])
    }

    package func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
        try TokenGrant.decode(
            response, client: client, hint: "the code was refused; start the login again (codes are single-use and live 5 minutes)")
    }
}

/// Uses a refresh token (RFC 6749 §6); `scope` (optional) must be within the originally granted scopes.
struct RefreshTokenRequest: APIRequest {
    var tokenEndpoint: URL
    package var client: ClientCredentials
    var refreshToken: String
    package var scope: String?

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { fields.append(("scope", scope)) }
        return TokenGrant.request(tokenEndpoint, client: client, fields: fields)
    }

    package func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
        let hint = "the refresh token is invalid, expired or revoked; log in again with `idflow login-pkce`"
        // Some providers refuse a refresh with a bare 400 or 401 and no body at all: still a refused refresh, whose
        // only fix is a new login, so it is said as one (exit 4), not as an answer idflow cannot read.
        if (400...401).contains(response.status), response.body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            throw .authentication("the token endpoint refused the refresh (HTTP \(response.status), no body)", hint: hint)
        }
        return try TokenGrant.decode(response, client: client, hint: hint)
    }
}

/// What the grants share: the client's credentials on a form POST, OAuth errors with hints, Bearer only.
package enum TokenGrant {
    /// Never retried once sent: codes are single-use and a refresh may rotate the token, so a second try
    /// could spend what the first already spent.
    package static func request(_ url: URL, client: ClientCredentials, fields: [(String, String)]) -> HTTPRequest {
        client.formRequest(url, fields: fields)
    }

    package static func decode(_ response: HTTPResponse, client: ClientCredentials, hint: String) throws(IdFlowError) -> TokenResponse {
        guard response.isSuccess else {
            let failure = response.failure()
            if case .oauth(let status, let body, nil) = failure {
                if body.error == "invalid_dpop_proof" {
                    throw .oauth(status: status, body: body, hint: DPoPHint.tokenEndpoint(sentProof: client.dpopKey != nil))
                }
                if ["invalid_grant", "invalid_client"].contains(body.error) {
                    throw .oauth(
                        status: status, body: body, hint: body.error == "invalid_client" ? ClientCredentials.refusalHint(client) : hint)
                }
            }
            throw failure
        }
        let tokens = try response.decode(TokenResponse.self)
        switch tokens.tokenType.lowercased() {
        case "bearer" where client.dpopKey != nil:
            try client.bearerInPlaceOfDPoP.accept()
            return tokens
        case "bearer":
            return tokens
        case "dpop" where client.dpopKey != nil:
            return tokens
        case "dpop":
            throw .protocolViolation("the token endpoint issued a DPoP-bound token although idflow sent no DPoP proof")
        default:
            throw .protocolViolation("the token endpoint issued a \(tokens.tokenType) token; idflow handles Bearer and DPoP tokens only")
        }
    }
}
