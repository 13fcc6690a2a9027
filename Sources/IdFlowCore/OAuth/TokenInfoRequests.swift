import Foundation

/// Asks the authorization server for its view of a token, active or not (RFC 7662).
public struct IntrospectionRequest: APIRequest {
    public var endpoint: URL
    public var client: ClientCredentials
    public var token: String
    public var hint: TokenKind?

    public init(endpoint: URL, client: ClientCredentials, token: String, hint: TokenKind?) {
        self.endpoint = endpoint
        self.client = client
        self.token = token
        self.hint = hint
    }

    /// Introspection changes nothing on the server, so it may be retried like a GET.
    public func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenInfoRequests.form(endpoint, client: client, token: token, hint: hint)
    }

    public func decode(_ response: HTTPResponse) throws(IdFlowError) -> JSONValue {
        try response.json()
    }
}

/// Revokes a token (RFC 7009); the server answers 200 even for a token it does not know.
public struct RevocationRequest: APIRequest {
    public var endpoint: URL
    public var client: ClientCredentials
    public var token: String
    public var hint: TokenKind?

    public init(endpoint: URL, client: ClientCredentials, token: String, hint: TokenKind?) {
        self.endpoint = endpoint
        self.client = client
        self.token = token
        self.hint = hint
    }

    /// Revoking twice has the effect of revoking once, so a lost answer may be retried.
    public func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenInfoRequests.form(endpoint, client: client, token: token, hint: hint)
    }

    public func decode(_ response: HTTPResponse) throws(IdFlowError) {
        guard response.isSuccess else { throw response.failure() }
    }
}

/// The claims the issuer releases for an access token (OIDC Core §5.3).
public struct UserinfoRequest: APIRequest {
    public var endpoint: URL
    public var accessToken: String

    public init(endpoint: URL, accessToken: String) {
        self.endpoint = endpoint
        self.accessToken = accessToken
    }

    public func httpRequest() throws(IdFlowError) -> HTTPRequest {
        .get(endpoint, headers: ["Authorization": "Bearer \(accessToken)"])
    }

    /// A refused token says so with the server's challenge, which names the reason (expired, revoked, scope).
    public func decode(_ response: HTTPResponse) throws(IdFlowError) -> JSONValue {
        if response.status == 401 {
            let challenge = response.header("WWW-Authenticate") ?? "Bearer"
            throw .authentication("the access token was refused (\(challenge))", hint: "refresh it with `idflow refresh` or log in again")
        }
        return try response.json()
    }
}

/// What introspection and revocation share: the token and its hint on a form POST with the client's credentials.
enum TokenInfoRequests {
    static func form(_ endpoint: URL, client: ClientCredentials, token: String, hint: TokenKind?) -> HTTPRequest {
        var fields = [("token", token)]
        if let hint { fields.append(("token_type_hint", hint.rawValue)) }
        let (form, headers) = client.apply(to: fields)
        return .form(endpoint, fields: form, headers: headers, isIdempotent: true)
    }
}
