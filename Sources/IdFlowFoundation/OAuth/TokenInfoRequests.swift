import Foundation

/// A token presented to the authorization server with the client's credentials: the token and its hint on
/// a form POST. Introspection (RFC 7662) and revocation (RFC 7009) send exactly this and differ only in what
/// they make of the answer, which `Purpose` decides.
package struct TokenPresentationRequest<Purpose: TokenPresentationPurpose>: APIRequest {
    package var endpoint: URL
    package var client: ClientCredentials
    package var token: String
    /// `token_type_hint`: a `TokenKind`'s name, or another the server knows (Native SSO's `device_secret`).
    package var hint: String?

    package init(endpoint: URL, client: ClientCredentials, token: String, hint: TokenKind?) {
        self.init(endpoint: endpoint, client: client, token: token, hintName: hint?.rawValue)
    }

    package init(endpoint: URL, client: ClientCredentials, token: String, hintName: String?) {
        self.endpoint = endpoint
        self.client = client
        self.token = token
        self.hint = hintName
    }

    /// Both may be retried: introspection changes nothing on the server, and revoking twice has the effect of
    /// revoking once.
    package func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("token", token)]
        if let hint { fields.append(("token_type_hint", hint)) }
        return client.formRequest(endpoint, fields: fields, isIdempotent: true)
    }

    package func decode(_ response: HTTPResponse) throws(IdFlowError) -> Purpose.Response {
        try Purpose.decode(response)
    }
}

/// What a `TokenPresentationRequest` is for: how its answer is read.
public protocol TokenPresentationPurpose: Sendable {
    associatedtype Response: Sendable
    static func decode(_ response: HTTPResponse) throws(IdFlowError) -> Response
}

/// Introspection: the server's view of the token, active or not, as sent.
public enum Introspection: TokenPresentationPurpose {
    public static func decode(_ response: HTTPResponse) throws(IdFlowError) -> JSONValue {
        try response.json()
    }
}

/// Revocation: the server answers 200 even for a token it does not know.
public enum Revocation: TokenPresentationPurpose {
    public static func decode(_ response: HTTPResponse) throws(IdFlowError) {
        guard response.isSuccess else { throw response.failure() }
    }
}

/// Asks the authorization server for its view of a token, active or not (RFC 7662).
package typealias IntrospectionRequest = TokenPresentationRequest<Introspection>
/// Revokes a token (RFC 7009).
package typealias RevocationRequest = TokenPresentationRequest<Revocation>
