import Foundation

/// One authorization request (RFC 6749 §4.1.1 with PKCE and OIDC's nonce): the URL to open, and the
/// secrets to check the answer against.
package struct AuthorizationRequest: Sendable {
    let endpoint: URL
    let clientID: String
    package let redirectURI: String
    package let scope: String
    package let pkce: PKCEPair
    /// Fresh per run; the answer must carry it back (CSRF protection).
    package let state: String
    /// Fresh per run; the ID token must carry it (replay protection).
    package let nonce: String
    /// Extra parameters: `sessionToken`, `prompt`, `response_mode`, `login_hint`…
    package var extraParameters: [(String, String)]

    package init(
        endpoint: URL, clientID: String, redirectURI: String, scope: String, pkce: PKCEPair = .generate(),
        state: String = RandomValue.base64URL(bytes: 24), nonce: String = RandomValue.base64URL(bytes: 24),
        extraParameters: [(String, String)] = []
    ) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.pkce = pkce
        self.state = state
        self.nonce = nonce
        self.extraParameters = extraParameters
    }

    package var url: URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        let parameters: [(String, String)] =
            [
                ("client_id", clientID), ("response_type", "code"), ("scope", scope), ("redirect_uri", redirectURI),
                ("state", state), ("nonce", nonce), ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method),
            ] + extraParameters
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + FormEncoding.encode(parameters)
        return components.url!
    }
}

/// What came back on the redirect URI: a code, or an error (RFC 6749 §4.1.2).
public enum AuthorizationResponse {
    /// Reads the code from a redirect URL (query, or fragment for `response_mode=fragment`), checking `state`
    /// first: an answer to someone else's request is never used.
    public static func code(from redirect: String, expectedState: String) throws(IdFlowError) -> String {
        let parameters = try parameters(from: redirect, expectedState: expectedState)
        guard let code = parameters["code"], !code.isEmpty else {
            throw .protocolViolation("the redirect carries neither a code nor an error")
        }
        return code
    }

    /// The query (or fragment) parameters of this login's redirect: refused unless `state` is this login's; an
    /// `error` the caller does not expect to handle (`continuing`) is thrown as the OAuth error.
    public static func parameters(
        from redirect: String, expectedState: String, continuing: Set<String> = []
    ) throws(IdFlowError) -> [String: String] {
        guard let components = URLComponents(string: redirect.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .invalidInput("the redirect URL cannot be parsed", hint: "paste the whole URL the browser was sent to")
        }
        let text = [components.percentEncodedQuery, components.percentEncodedFragment].compactMap { $0 }.joined(separator: "&")
        let parameters = Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
        guard parameters["state"] == expectedState else {
            throw .security(
                parameters["state"] == nil ? "the redirect carries no state" : "the redirect's state does not match this login's",
                hint: "the answer belongs to another login attempt (or a forged link); start again")
        }
        if let error = parameters["error"], !continuing.contains(error) {
            throw .oauth(
                status: nil, body: OAuthErrorBody(error: error, errorDescription: parameters["error_description"]), hint: hint(for: error))
        }
        return parameters
    }

    static func hint(for error: String) -> String? {
        switch error {
        case "login_required": return "the session token is invalid, used or expired (they are single-use, 5 minutes); get a new one"
        case "access_denied": return "the user or a policy refused; check the app's assignment and the sign-on policy"
        case "invalid_scope": return "ask only for scopes the authorization server knows (--scope)"
        default: return nil
        }
    }
}
