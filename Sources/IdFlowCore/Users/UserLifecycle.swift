import Foundation
import IdFlowFoundation

/// The lifecycle calls a runbook needs around sign-in trouble (okta-core.md §G), with an admin's API token: see
/// a user's status, unlock a locked-out account, suspend and unsuspend, expire the password (to a temporary one on
/// request), and reset it (a link, or an e-mail from the org).
public struct UserLifecycle: Sendable {
    public enum Operation: String, CaseIterable, Sendable {
        case show = "get"
        case unlock
        case suspend
        case unsuspend
        case expirePassword = "expire-password"
        case resetPassword = "reset-password"
    }

    /// A user id (`00u…`) or a login.
    public var user: String
    public var operation: Operation
    /// `expire-password`: set a temporary password and print it (`expire_password_with_temp_password`).
    public var tempPassword: Bool
    /// `reset-password`: let the org e-mail the link instead of printing it.
    public var sendEmail: Bool

    public init(user: String, operation: Operation, tempPassword: Bool = false, sendEmail: Bool = false) {
        self.user = user
        self.operation = operation
        self.tempPassword = tempPassword
        self.sendEmail = sendEmail
    }

    /// `user get` prints the user object as Okta sends it; the others `{"userId", "login", "status"}` read back
    /// after the call, plus `tempPassword` or `resetPasswordUrl` when the org returns one.
    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> JSONValue {
        let reference = user.trimmingCharacters(in: .whitespaces)
        guard !reference.isEmpty else { throw .invalidInput("the user is empty", hint: "pass a user id (00u…) or a login") }
        let api = try context.usersAPI()
        let (before, document) = try await api.user(reference)
        guard let call = call else { return document }
        let answer: JSONValue
        do throws(IdFlowError) {
            answer = try await api.send {
                LifecycleRequest(orgURL: api.orgURL, authorization: $0, userID: before.id, path: call.path, query: call.query)
            }
        } catch {
            throw Self.explain(error, operation: operation, user: before)
        }
        let (after, _) = try await api.user(before.id)
        context.message("\(operation.rawValue): \(after.profile.login) is \(after.status) (was \(before.status))")
        var output: [String: JSONValue] = [
            "userId": .string(after.id), "login": .string(after.profile.login), "status": .string(after.status),
        ]
        for key in ["tempPassword", "resetPasswordUrl"] {
            if let value = answer[key]?.stringValue { output[key] = .string(value) }
        }
        return .object(output)
    }

    /// The path under `/api/v1/users/{id}/` and the query of the operation; nil for `get`.
    private var call: (path: [String], query: [(String, String)])? {
        switch operation {
        case .show: return nil
        case .unlock: return (["lifecycle", "unlock"], [])
        case .suspend: return (["lifecycle", "suspend"], [])
        case .unsuspend: return (["lifecycle", "unsuspend"], [])
        case .expirePassword:
            return tempPassword ? (["lifecycle", "expire_password_with_temp_password"], []) : (["lifecycle", "expire_password"], [])
        case .resetPassword: return (["lifecycle", "reset_password"], [("sendEmail", sendEmail ? "true" : "false")])
        }
    }

    /// Okta's refusals name no status; the user's does.
    private static func explain(_ error: IdFlowError, operation: Operation, user: OktaUser) -> IdFlowError {
        guard case .okta(let status, let body, _) = error else { return error }
        let hint: String
        switch (operation, body.errorCode) {
        case (.unlock, "E0000032"): hint = "\(user.profile.login) is \(user.status), not LOCKED_OUT: there is nothing to unlock"
        case (_, "E0000038"), (_, "E0000034"), (_, "E0000035"):
            hint = "\(operation.rawValue) is not allowed while \(user.profile.login) is \(user.status)"
        default: return error
        }
        return .okta(status: status, body: body, hint: hint)
    }
}

/// A lifecycle POST without a body (okta-core.md §G), answered with `{}`, a user, or the temporary password / reset
/// link. Not retried when lost: a second reset sends a second link.
struct LifecycleRequest: APIRequest {
    var orgURL: URL
    var authorization: ManagementAuthorization
    var userID: String
    var path: [String]
    var query: [(String, String)]

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let url = OrgEndpoint(orgURL: orgURL).url(["api", "v1", "users", userID] + path, query: query)
        return authorization.authorize(HTTPRequest(method: "POST", url: url, headers: ["Accept": "application/json"]))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> JSONValue {
        guard response.status != 404 else { throw UsersRequests.unknownUser(userID, response: response) }
        guard response.isSuccess else { throw response.failure() }
        return (try? response.json()) ?? [:]
    }
}
