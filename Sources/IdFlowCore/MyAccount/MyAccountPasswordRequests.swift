import Foundation
import IdFlowFoundation

/// The MyAccount Password API (docs/protocols/direct-auth.md §9.2): calls with the user's own token, which must carry
/// `okta.myAccount.password.manage`, and the API version in `Accept`.
public enum MyAccountPassword {
    /// The scope every call needs, and the only one a recovery token has.
    public static let scope = "okta.myAccount.password.manage"

    /// What to do when the token lacks the scope: sign in again asking for it.
    static let scopeHint = "log in with --scope \"openid \(scope)\" (for example `idflow login-direct --scope \"openid \(scope)\" …`)"

    static func url(_ org: URL, _ segments: [String] = []) -> URL {
        OrgEndpoint(orgURL: org).url(["idp", "myaccount", "password"] + segments)
    }

    static func headers(_ token: Secret) -> [String: String] {
        ["Authorization": "Bearer \(token.value)", "Accept": MyAccount.accept]
    }

    /// A refusal: the scope hint on 401/403 unless it is the password policy's (E0000080) or a wrong old password
    /// (E0000014), which say what to change themselves.
    static func failure(_ response: HTTPResponse) -> IdFlowError {
        if case .okta(_, let body, nil) = response.failure(), ["E0000080", "E0000014"].contains(body.errorCode) {
            return response.failure()
        }
        return MyAccount.failure(response, hint: "the access token is missing, expired, or lacks \(scope); \(scopeHint)")
    }
}

/// The Password object a `PUT` answers (`id`, `status`, `created`, `lastUpdated`).
public struct MyAccountPasswordStatus: Codable, Sendable, Equatable {
    public var id: String?
    public var status: String?
    public var created: String?
    public var lastUpdated: String?
}

/// `PUT {org}/idp/myaccount/password` `{"profile": {"password"}}`: replaces the password (a recovery's last step).
struct MyAccountReplacePasswordRequest: APIRequest {
    var org: URL
    var accessToken: Secret
    var password: Secret

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try MyAccount.json(
            "PUT", MyAccountPassword.url(org), body: ["profile": ["password": .string(password.value)]],
            headers: MyAccountPassword.headers(accessToken).merging(["Content-Type": "application/json"]) { $1 })
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> MyAccountPasswordStatus {
        guard response.isSuccess else { throw MyAccountPassword.failure(response) }
        return try response.decode(MyAccountPasswordStatus.self)
    }
}

/// `POST {org}/idp/myaccount/password/change-password` `{"oldPassword", "newPassword"}` → 204.
struct MyAccountChangePasswordRequest: APIRequest {
    var org: URL
    var accessToken: Secret
    var oldPassword: Secret
    var newPassword: Secret

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try MyAccount.json(
            "POST", MyAccountPassword.url(org, ["change-password"]),
            body: ["oldPassword": .string(oldPassword.value), "newPassword": .string(newPassword.value)],
            headers: MyAccountPassword.headers(accessToken).merging(["Content-Type": "application/json"]) { $1 })
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) {
        guard response.isSuccess else { throw MyAccountPassword.failure(response) }
    }
}

/// `GET {org}/idp/myaccount/password/complexity-requirements`: the rules a new password must meet, read from
/// `complexity` (the names Authn publishes); nil when the server does not say, and then only the server checks.
struct MyAccountComplexityRequest: APIRequest {
    var org: URL
    var accessToken: Secret

    struct Wire: Decodable {
        var complexity: PasswordRules?
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        HTTPRequest(
            method: "GET", url: MyAccountPassword.url(org, ["complexity-requirements"]), headers: MyAccountPassword.headers(accessToken))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> PasswordRules? {
        guard response.isSuccess else {
            // The rules are a courtesy: a server without this call still checks the password it is sent.
            if [404, 405].contains(response.status) { return nil }
            throw MyAccountPassword.failure(response)
        }
        return try response.decode(Wire.self).complexity
    }
}
