import HTTPTypes
import Hummingbird

/// The protected resources' answers: the RFC 9728 metadata document, the echo, and RFC 6750 challenges.
enum ResourceWire {
    /// RFC 9728 §2, the members idflow's resources use.
    static func metadata(_ resource: ProtectedResource, orgURL: String) -> OrderedJSON {
        [
            "resource": .string(resource.identifier(orgURL: orgURL)),
            "authorization_servers": [.string(resource.server.issuer(orgURL: orgURL))],
            "scopes_supported": .array(resource.scopesSupported.map(OrderedJSON.string)),
            "bearer_methods_supported": ["header"],
            "resource_name": .string(resource == .api ? "idflow sandbox API" : "idflow sandbox org API"),
        ]
    }

    /// What the app's API answers a good token with: who called, with which scopes, how, and what was sent.
    static func echo(sub: String, scopes: [String], method: String, body: OrderedJSON) -> OrderedJSON {
        ["sub": .string(sub), "scopes": .array(scopes.map(OrderedJSON.string)), "method": .string(method), "body": body]
    }
}

/// A resource's refusal (RFC 6750 §3): the status, the `WWW-Authenticate: Bearer` challenge with the RFC 9728
/// `resource_metadata`, and, when there is an error code, the OAuth error body. A request without any token gets
/// the challenge without an error code, as §3.1 asks.
struct ResourceChallenge: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let error: String?
    let errorDescription: String?
    /// The scope the call needs (`insufficient_scope`).
    var scope: String?
    let metadataURL: String
    /// `Bearer`, or `DPoP` for a DPoP-bound token's refusals (RFC 9449 §7.1).
    var scheme = "Bearer"
    /// The nonce a DPoP proof must carry (`use_dpop_nonce`, RFC 9449 §9), sent as `DPoP-Nonce`.
    var dpopNonce: String?

    static func missingToken(metadataURL: String) -> ResourceChallenge {
        ResourceChallenge(status: .unauthorized, error: nil, errorDescription: nil, metadataURL: metadataURL)
    }

    static func invalidToken(_ description: String, metadataURL: String) -> ResourceChallenge {
        ResourceChallenge(status: .unauthorized, error: "invalid_token", errorDescription: description, metadataURL: metadataURL)
    }

    var headerValue: String {
        var parameters = [("realm", ProtectedResource.realm)]
        if let error { parameters.append(("error", error)) }
        if let errorDescription { parameters.append(("error_description", errorDescription)) }
        if let scope { parameters.append(("scope", scope)) }
        parameters.append(("resource_metadata", metadataURL))
        let quoted = parameters.map { name, value in
            "\(name)=\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        }
        return scheme + " " + quoted.joined(separator: ", ")
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if let error {
            var body: JSONObject = ["error": .string(error)]
            if let errorDescription { body["error_description"] = .string(errorDescription) }
            response = .json(.object(body), status: status)
        } else {
            response = .empty(status)
        }
        response.headers[.wwwAuthenticate] = headerValue
        if let dpopNonce { response.headers[.dpopNonce] = dpopNonce }
        return response
    }
}
