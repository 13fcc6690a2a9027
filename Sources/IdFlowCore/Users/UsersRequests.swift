import Foundation
import IdFlowFoundation

/// Creates a user with the given profile and no credentials; `activate=false` leaves it STAGED.
struct CreateUserRequest: APIRequest {
    var orgURL: URL
    var authorization: ManagementAuthorization
    var profile: [String: JSONValue]
    var activate: Bool

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let body: JSONValue = ["profile": .object(profile)]
        let url = OrgEndpoint(orgURL: orgURL).url(["api", "v1", "users"], query: [("activate", activate ? "true" : "false")])
        do {
            return authorization.authorize(try .json("POST", url, body: body))
        } catch {
            throw .internalFailure("cannot encode the user profile: \(error)")
        }
    }

    /// The user as idflow reads it, and the whole object as the server sent it (for output).
    func decode(_ response: HTTPResponse) throws(IdFlowError) -> (OktaUser, JSONValue) {
        try UsersRequests.user(response)
    }
}

/// Reads a user by id or login.
struct GetUserRequest: APIRequest {
    var orgURL: URL
    var authorization: ManagementAuthorization
    /// A user id (`00u…`) or a login; escaped as one path segment, so it can never change the path.
    var user: String

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        authorization.authorize(.get(OrgEndpoint(orgURL: orgURL).url(["api", "v1", "users", user])))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> (OktaUser, JSONValue) {
        guard response.status != 404 else { throw UsersRequests.unknownUser(user, response: response) }
        return try UsersRequests.user(response)
    }
}

/// Activates a STAGED user (`lifecycle/activate`), or issues a PROVISIONED user a new activation token that
/// replaces the old one (`lifecycle/reactivate`); with `sendEmail` the server mails the link and returns `{}`.
struct ActivateUserRequest: APIRequest {
    /// The two lifecycle operations that hand out an activation token, named as in their paths.
    enum Operation: String, Sendable {
        case activate
        case reactivate
    }

    var orgURL: URL
    var authorization: ManagementAuthorization
    var userID: String
    var sendEmail: Bool
    var operation: Operation

    init(orgURL: URL, authorization: ManagementAuthorization, userID: String, sendEmail: Bool, operation: Operation = .activate) {
        self.orgURL = orgURL
        self.authorization = authorization
        self.userID = userID
        self.sendEmail = sendEmail
        self.operation = operation
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let url = OrgEndpoint(orgURL: orgURL).url(
            ["api", "v1", "users", userID, "lifecycle", operation.rawValue], query: [("sendEmail", sendEmail ? "true" : "false")])
        // A second activation answers an error or a new token, so a POST lost in transit is not retried.
        return authorization.authorize(HTTPRequest(method: "POST", url: url, headers: ["Accept": "application/json"]))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> UserActivationToken {
        guard response.status != 404 else { throw UsersRequests.unknownUser(userID, response: response) }
        return try response.decode(UserActivationToken.self)
    }
}

/// What the Users API requests share: the answer to an unknown user.
enum UsersRequests {
    /// The user a 2xx answer holds, read from the one parse of its body that is also kept for output; anything
    /// else (an error status, a body that is not a user) takes the decoder's path, which says what is wrong.
    static func user(_ response: HTTPResponse) throws(IdFlowError) -> (OktaUser, JSONValue) {
        if response.isSuccess, let document = try? response.json(), let user = OktaUser(document: document) {
            return (user, document)
        }
        return (try response.decode(OktaUser.self), try response.json())
    }

    static func unknownUser(_ reference: String, response: HTTPResponse) -> IdFlowError {
        let hint = "check the id or login; `idflow register` creates users"
        if case .okta(let status, let body, _) = response.failure() {
            return .okta(status: status, body: body, hint: hint)
        }
        return .notFound("no user \(reference)", hint: hint)
    }
}
