import Foundation
import IdFlowFoundation

/// Okta's management Users API (`/api/v1/users`), authorised with the API token (`SSWS`) or a service app's token
/// (PrivateKey mode): a facade that builds each request value and sends it, so callers hold the org and
/// credentials once instead of passing them to every call.
public struct UsersAPI: Sendable {
    let http: HTTPClient
    let orgURL: URL
    let credentials: ManagementCredentials

    public init(http: HTTPClient, orgURL: URL, credentials: ManagementCredentials) {
        self.http = http
        self.orgURL = orgURL
        self.credentials = credentials
    }

    public init(http: HTTPClient, orgURL: URL, apiToken: Secret) {
        self.init(http: http, orgURL: orgURL, credentials: .apiToken(apiToken))
    }

    /// Creates a user with the given profile and no credentials; `activate=false` leaves it STAGED.
    public func createUser(profile: [String: JSONValue], activate: Bool) async throws(IdFlowError) -> (OktaUser, JSONValue) {
        try await send { CreateUserRequest(orgURL: orgURL, authorization: $0, profile: profile, activate: activate) }
    }

    /// Reads a user by id or login.
    public func user(_ idOrLogin: String) async throws(IdFlowError) -> (OktaUser, JSONValue) {
        try await send { GetUserRequest(orgURL: orgURL, authorization: $0, user: idOrLogin) }
    }

    /// Activates a STAGED user; with `sendEmail` the server mails the link and returns `{}`.
    func activate(userID: String, sendEmail: Bool, operation: ActivateUserRequest.Operation = .activate) async throws(IdFlowError)
        -> UserActivationToken
    {
        try await send {
            ActivateUserRequest(orgURL: orgURL, authorization: $0, userID: userID, sendEmail: sendEmail, operation: operation)
        }
    }

    /// Sends the request `make` builds with the run's credentials. A service app's token refused as invalid (revoked,
    /// or expired early) is replaced once and the request made again; a refusal Okta reports only in
    /// `WWW-Authenticate` (a missing scope, a bad proof) becomes an error that says what to fix.
    func send<R: APIRequest>(_ make: (ManagementAuthorization) -> R) async throws(IdFlowError) -> R.Response {
        var (authorization, token) = try await credentials.authorization()
        var request = make(authorization)
        var sent = try request.httpRequest()
        var response = try await http.send(sent)
        var challenge = ManagementRefusal.challenge(response, authorization)
        if let refused = token, case .serviceApp(let session) = credentials,
            ManagementRefusal.tokenRefused(challenge, status: response.status)
        {
            authorization = ManagementCredentials.authorization(try await session.renew(refused: refused))
            request = make(authorization)
            sent = try request.httpRequest()
            response = try await http.send(sent)
            challenge = ManagementRefusal.challenge(response, authorization)
        }
        if let challenge, let error = ManagementRefusal.error(challenge, status: response.status, method: sent.method, url: sent.url) {
            throw error
        }
        return try request.decode(response)
    }
}
