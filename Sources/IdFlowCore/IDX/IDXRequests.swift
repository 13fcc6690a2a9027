import Foundation
import IdFlowFoundation

extension IDX {
    /// `POST {interact URL}` (idx.md §2): starts an interaction bound to a PKCE challenge, a state and a nonce.
    struct InteractRequest: APIRequest {
        var url: URL
        var client: ClientCredentials
        var redirectURI: String
        var scope: String
        var pkce: PKCEPair
        var state: String
        var nonce: String

        func httpRequest() throws(IdFlowError) -> HTTPRequest {
            let fields = [
                ("scope", scope), ("redirect_uri", redirectURI), ("code_challenge", pkce.challenge),
                ("code_challenge_method", pkce.method), ("state", state), ("nonce", nonce),
            ]
            return client.formRequest(url, fields: fields)
        }

        /// The interaction handle; the server spells it snake_case, an SDK fixture camelCase.
        func decode(_ response: HTTPResponse) throws(IdFlowError) -> String {
            guard response.isSuccess else {
                throw response.failure(hint: "check --client-id, --redirect-uri and that the app uses the Interaction Code grant")
            }
            let body = try response.decode(JSONValue.self)
            guard let handle = (body["interaction_handle"] ?? body["interactionHandle"])?.stringValue, !handle.isEmpty else {
                throw .protocolViolation("the interact response carries no interaction_handle")
            }
            return handle
        }
    }

    /// `POST {org}/idp/idx/introspect {"interactionHandle"}` (idx.md §3): the first IDX document.
    struct IntrospectRequest: APIRequest {
        var url: URL
        var interactionHandle: String

        func httpRequest() throws(IdFlowError) -> HTTPRequest {
            try IDX.jsonRequest(url, body: ["interactionHandle": .string(interactionHandle)], contentType: "application/json")
        }

        func decode(_ response: HTTPResponse) throws(IdFlowError) -> Document { try IDX.document(response) }
    }

    /// A form sent to its `href` with the content type of its `accepts` (idx.md §4); answers with the next document.
    struct ProceedRequest: APIRequest {
        var form: Remediation
        var body: [String: JSONValue]

        func httpRequest() throws(IdFlowError) -> HTTPRequest {
            try IDX.jsonRequest(form.href, body: body, contentType: form.accepts)
        }

        func decode(_ response: HTTPResponse) throws(IdFlowError) -> Document { try IDX.document(response) }
    }

    /// The success form sent to the token endpoint (idx.md §6): `grant_type=interaction_code`, the code, and
    /// the PKCE verifier; fields without a value are dropped, so a public client sends no secret.
    struct InteractionCodeTokenRequest: APIRequest {
        var form: Remediation
        var client: ClientCredentials
        var verifier: String

        func httpRequest() throws(IdFlowError) -> HTTPRequest {
            guard form.name == "issue" else { throw .protocolViolation("the success form is named \(form.name), not issue") }
            var fields: [(String, String)] = []
            for field in form.fields {
                guard let name = field.name else { continue }
                switch name {
                case "client_id":
                    guard field.value?.stringValue ?? client.clientID == client.clientID else {
                        throw .security("the success form is for another client", hint: "check --client-id")
                    }
                case "client_secret": continue
                case "code_verifier": fields.append((name, verifier))
                default: if let value = field.value?.stringValue { fields.append((name, value)) }
                }
            }
            return TokenGrant.request(form.href, client: client, fields: fields)
        }

        func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
            try TokenGrant.decode(response, client: client, hint: "the interaction code was refused; start the sign-in again")
        }
    }

    static func jsonRequest(_ url: URL, body: [String: JSONValue], contentType: String) throws(IdFlowError) -> HTTPRequest {
        do {
            return try .json("POST", url, body: JSONValue.object(body), headers: ["Content-Type": contentType, "Accept": ionJSON])
        } catch {
            throw .internalFailure("an IDX form did not encode: \(error)")
        }
    }

    /// An IDX answer: 200–499 carry a document (errors are messages inside it, §4); anything else fails.
    static func document(_ response: HTTPResponse) throws(IdFlowError) -> Document {
        if let unreadable = unreadable(response) { throw unreadable }
        guard (200..<500).contains(response.status), response.status != 429, response.looksLikeJSON else { throw response.failure() }
        return try Document(data: response.body)
    }

    /// The interact URL of an issuer (idx.md §1): `{issuer}/v1/interact` for `/oauth2…` issuers, else
    /// `{issuer}/oauth2/v1/interact`.
    public static func interactURL(issuer: URL) -> URL {
        issuer.path.hasPrefix("/oauth2")
            ? issuer.appendingPathComponent("v1/interact") : issuer.appendingPathComponent("oauth2/v1/interact")
    }

    /// `{org base}/idp/idx/introspect`: the issuer's path is replaced, not appended to.
    public static func introspectURL(issuer: URL) -> URL {
        (Origin(issuer)?.url ?? issuer).appendingPathComponent("idp/idx/introspect")
    }

    /// Whether `url` is on the issuer's scheme, host and port: hrefs carry the state handle and the
    /// verifier, so they are only followed to the server that started the interaction.
    static func sameOrigin(_ url: URL, _ issuer: URL) -> Bool {
        guard let origin = Origin(url) else { return false }
        return origin == Origin(issuer)
    }
}
