import Foundation
import IdFlowFoundation

/// What the Token Server answers to an init or complete call with HTTP 200: the script's `status`, the
/// transaction, the script's `data`, and on a successful complete the tokens (custom-registration.md §3).
public struct CustomRegistrationAnswer: Sendable, Equatable {
    public var status: Int
    public var transactionID: String?
    /// The script's payload: parsed when it is a JSON object or array sent as a string, else the string.
    public var data: JSONValue?
    /// The token response: `oauth_token.*` as the documented example nests it, else the top-level fields the
    /// parameter table lists (§3.3: a tolerant client reads both).
    public var tokens: TokenResponse?

    public var range: StatusRange { StatusRange(status) }

    public init(status: Int, transactionID: String? = nil, data: JSONValue? = nil, tokens: TokenResponse? = nil) {
        self.status = status
        self.transactionID = transactionID
        self.data = data
        self.tokens = tokens
    }

    /// Reads a 200 body; a body without an integer `status` is not a Token Server answer.
    static func parse(_ body: Data, from url: URL) throws(IdFlowError) -> CustomRegistrationAnswer {
        guard let document = try? JSONValue(data: body), case .object(let members) = document,
            let status = members["status"]?.intValue
        else {
            throw .protocolViolation("the token server's answer from \(Redactor.url(url.absoluteString)) has no integer status")
        }
        var answer = CustomRegistrationAnswer(
            status: status, transactionID: members["transaction_id"]?.stringValue, data: members["data"].flatMap(Self.payload))
        if let nested = members["oauth_token"], case .object = nested {
            answer.tokens = try tokenResponse(nested, url: url)
        } else if members["access_token"] != nil {
            answer.tokens = try tokenResponse(document, url: url)
        }
        return answer
    }

    private static func tokenResponse(_ document: JSONValue, url: URL) throws(IdFlowError) -> TokenResponse {
        let tokens: TokenResponse
        do {
            tokens = try JSONDecoder().decode(TokenResponse.self, from: JSONEncoder().encode(document))
        } catch {
            throw .protocolViolation(
                "the tokens in the token server's answer from \(Redactor.url(url.absoluteString)) are not a token response: \(HTTPResponse.describe(decodingError: error))"
            )
        }
        guard tokens.tokenType.lowercased() == "bearer" else {
            throw .protocolViolation("the token server issued a \(tokens.tokenType) token; idflow handles Bearer tokens only")
        }
        return tokens
    }

    /// The data as a person or `jq` wants it: a string holding a JSON object or array becomes that JSON, any
    /// other string stays a string (a code such as "012345" keeps its zero); `null` is no data.
    static func payload(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .null: return nil
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("{") || trimmed.hasPrefix("["), let parsed = try? JSONValue(data: Data(trimmed.utf8)) {
                return parsed
            }
            return value
        default: return value
        }
    }
}

/// What both Token Server calls share: the URL `{tokenServer}/oauth/custom-registration/{idp}/{step}`, HTTP
/// Basic client authentication (v1, §3.1), a JSON body, never retried (an init opens a transaction and a
/// complete spends an attempt), and the errors of §4 with what to do about each.
public struct TokenServerEndpoint: Sendable, Equatable {
    public var tokenServer: URL
    public var identityProvider: String
    public var client: ClientCredentials

    public init(tokenServer: URL, identityProvider: String, client: ClientCredentials) {
        self.tokenServer = tokenServer
        self.identityProvider = identityProvider
        self.client = client
    }

    /// Identity provider ids are path segments; anything that would change the path is refused up front.
    public static func checkIdentifier(_ id: String) throws(IdFlowError) {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
        guard !id.isEmpty, id.count <= 128, id.allSatisfy(allowed.contains), id != ".", id != ".." else {
            throw .invalidInput(
                "\"\(id)\" is not an identity provider id", hint: "pass the id the token server knows, e.g. --idp invite-code")
        }
    }

    func url(_ step: RegistrationStep) -> URL {
        tokenServer.appendingPathComponent("oauth/custom-registration").appendingPathComponent(identityProvider)
            .appendingPathComponent(step.rawValue)
    }

    func request(_ step: RegistrationStep, body: some Encodable) throws(IdFlowError) -> HTTPRequest {
        guard client.secret != nil else {
            throw .configuration(
                "custom registration needs the client secret",
                hint: "pass --client-secret-file PATH, export IDFLOW_CLIENT_SECRET_FILE, or set clientSecretFile in the profile")
        }
        let headers = client.apply(to: []).headers
        do {
            return try .json("POST", url(step), body: body, headers: headers, isIdempotent: false)
        } catch {
            throw .internalFailure("cannot encode the \(step.rawValue) request: \(error)")
        }
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> CustomRegistrationAnswer {
        guard response.isSuccess else {
            let failure = response.failure()
            guard case .oauth(let status, let body, nil) = failure else { throw failure }
            throw .oauth(status: status, body: body, hint: Self.hint(for: body.error, identityProvider: identityProvider))
        }
        return try CustomRegistrationAnswer.parse(response.body, from: response.url)
    }

    static func hint(for error: String, identityProvider: String) -> String? {
        switch error {
        case "invalid_client": return "check --client-id and --client-secret-file: the client registered for custom registration"
        case "invalid_idp_identifier": return "the token server has no identity provider \(identityProvider); check --idp"
        case "idp_disabled": return "\(identityProvider) is disabled, or not configured for this client"
        case "invalid_transaction":
            return "the transaction is unknown or expired; start the registration again without --transaction-id"
        case "invalid_scope": return "ask for scopes the client may have: check --scope"
        case "invalid_request": return "run again with --verbose to see the request"
        default: return nil
        }
    }
}

/// `POST …/{idp}/init` (two-step identity providers): `{"data": "…"}`, the raw string for the init script.
struct CustomRegistrationInitRequest: APIRequest {
    var endpoint: TokenServerEndpoint
    var data: String?

    struct Body: Encodable {
        var data: String?
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try endpoint.request(.initialize, body: Body(data: data))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> CustomRegistrationAnswer {
        try endpoint.decode(response)
    }
}

/// `POST …/{idp}/complete`: the transaction (from init, or from an earlier retry), the raw data, the scopes as a
/// JSON array, and the 6-character profile id of the registration.
struct CustomRegistrationCompleteRequest: APIRequest {
    var endpoint: TokenServerEndpoint
    var transactionID: String?
    var data: String?
    var scopes: [String]
    var profileID: String

    struct Body: Encodable {
        var transactionID: String?
        var data: String?
        var scope: [String]
        var profileID: String

        enum CodingKeys: String, CodingKey {
            case transactionID = "transaction_id"
            case data, scope
            case profileID = "profile_id"
        }
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try endpoint.request(.complete, body: Body(transactionID: transactionID, data: data, scope: scopes, profileID: profileID))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> CustomRegistrationAnswer {
        try endpoint.decode(response)
    }
}
