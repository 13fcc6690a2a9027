import Foundation

/// A token presented to the authorization server with the client's credentials: the token and its hint on
/// a form POST. Introspection (RFC 7662) and revocation (RFC 7009) send exactly this and differ only in what
/// they make of the answer, which `Purpose` decides.
struct TokenPresentationRequest<Purpose: TokenPresentationPurpose>: APIRequest {
    var endpoint: URL
    var client: ClientCredentials
    var token: String
    var hint: TokenKind?

    /// Both may be retried: introspection changes nothing on the server, and revoking twice has the effect of
    /// revoking once.
    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("token", token)]
        if let hint { fields.append(("token_type_hint", hint.rawValue)) }
        return client.formRequest(endpoint, fields: fields, isIdempotent: true)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Purpose.Response {
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
typealias IntrospectionRequest = TokenPresentationRequest<Introspection>
/// Revokes a token (RFC 7009).
typealias RevocationRequest = TokenPresentationRequest<Revocation>

/// The claims the issuer releases for an access token (OIDC Core §5.3).
struct UserinfoRequest: APIRequest {
    var endpoint: URL
    var accessToken: AccessTokenPresentation

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        accessToken.present(.get(endpoint))
    }

    /// A refused token says so with the server's challenge, which names the reason (expired, revoked, scope).
    func decode(_ response: HTTPResponse) throws(IdFlowError) -> JSONValue {
        if response.status == 401 {
            let challenge = response.header("WWW-Authenticate") ?? "Bearer"
            throw .authentication("the access token was refused (\(challenge))", hint: "refresh it with `idflow refresh` or log in again")
        }
        return try response.json()
    }
}
