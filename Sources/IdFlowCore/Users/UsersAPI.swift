import Foundation

/// Okta's management Users API (`/api/v1/users`), authorised with `SSWS {apiToken}`: a facade that builds
/// each request value and sends it, so callers hold the org and token once instead of passing them to every call.
public struct UsersAPI: Sendable {
    let http: HTTPClient
    let orgURL: URL
    let apiToken: Secret

    public init(http: HTTPClient, orgURL: URL, apiToken: Secret) {
        self.http = http
        self.orgURL = orgURL
        self.apiToken = apiToken
    }

    /// Creates a user with the given profile and no credentials; `activate=false` leaves it STAGED.
    public func createUser(profile: [String: JSONValue], activate: Bool) async throws(IdFlowError) -> (OktaUser, JSONValue) {
        try await http.send(CreateUserRequest(orgURL: orgURL, apiToken: apiToken, profile: profile, activate: activate))
    }

    /// Reads a user by id or login.
    public func user(_ idOrLogin: String) async throws(IdFlowError) -> (OktaUser, JSONValue) {
        try await http.send(GetUserRequest(orgURL: orgURL, apiToken: apiToken, user: idOrLogin))
    }

    /// Activates a STAGED user; with `sendEmail` the server mails the link and returns `{}`.
    func activate(userID: String, sendEmail: Bool, operation: ActivateUserRequest.Operation = .activate) async throws(IdFlowError)
        -> UserActivationToken
    {
        try await http.send(
            ActivateUserRequest(orgURL: orgURL, apiToken: apiToken, userID: userID, sendEmail: sendEmail, operation: operation))
    }
}
