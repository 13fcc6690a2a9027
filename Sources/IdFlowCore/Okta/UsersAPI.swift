import Foundation

/// Okta's management Users API (`/api/v1/users`), authorised with `SSWS {apiToken}`.
public struct UsersAPI: Sendable {
    let http: HTTPClient
    let org: OrgEndpoint
    let apiToken: Secret

    public init(http: HTTPClient, orgURL: URL, apiToken: Secret) {
        self.http = http
        self.org = OrgEndpoint(orgURL: orgURL)
        self.apiToken = apiToken
    }

    private var authorization: [String: String] { ["Authorization": "SSWS \(apiToken.value)"] }

    /// Creates a user with the given profile and no credentials; `activate=false` leaves it STAGED.
    public func createUser(profile: [String: JSONValue], activate: Bool) async throws(IdFlowError) -> (OktaUser, JSONValue) {
        let body: JSONValue = ["profile": .object(profile)]
        let request: HTTPRequest
        do {
            request = try .json(
                "POST", org.url(["api", "v1", "users"], query: [("activate", activate ? "true" : "false")]), body: body,
                headers: authorization)
        } catch {
            throw .internalFailure("cannot encode the user profile: \(error)")
        }
        let response = try await http.send(request)
        return (try response.decode(OktaUser.self), try response.json())
    }

    /// Reads a user by id or login.
    public func user(_ idOrLogin: String) async throws(IdFlowError) -> (OktaUser, JSONValue) {
        let response = try await http.send(.get(org.url(["api", "v1", "users", idOrLogin]), headers: authorization))
        guard response.status != 404 else {
            throw Self.unknownUser(idOrLogin, response: response)
        }
        return (try response.decode(OktaUser.self), try response.json())
    }

    /// Activates a STAGED user; with `sendEmail` the server mails the link and returns `{}`.
    public func activate(userID: String, sendEmail: Bool) async throws(IdFlowError) -> UserActivationToken {
        let url = org.url(["api", "v1", "users", userID, "lifecycle", "activate"], query: [("sendEmail", sendEmail ? "true" : "false")])
        let response = try await http.send(HTTPRequest(method: "POST", url: url, headers: authorization.merging(["Accept": "application/json"]) { $1 }))
        guard response.status != 404 else { throw Self.unknownUser(userID, response: response) }
        return try response.decode(UserActivationToken.self)
    }

    private static func unknownUser(_ reference: String, response: HTTPResponse) -> IdFlowError {
        let hint = "check the id or login; `idflow register` creates users"
        if case .okta(let status, let body, _) = response.failure() {
            return .okta(status: status, body: body, hint: hint)
        }
        return .notFound("no user \(reference)", hint: hint)
    }
}
