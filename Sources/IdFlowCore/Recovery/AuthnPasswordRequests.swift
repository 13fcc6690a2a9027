import Foundation
import IdFlowFoundation

/// Changes the password of a PASSWORD_EXPIRED or PASSWORD_WARN transaction, the old password sent again
/// (okta-core.md §F2), at the transaction's `next` link on the org.
struct ChangePasswordRequest: APIRequest {
    var orgURL: URL
    var transaction: AuthnTransaction
    var oldPassword: Secret
    var newPassword: Secret

    private struct Body: Encodable {
        var stateToken: String
        var oldPassword: String
        var newPassword: String
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let stateToken = try AuthnRequests.stateToken(of: transaction)
        let url = try AuthnRequests.link(
            transaction.links?.next, orgURL: orgURL, default: ["api", "v1", "authn", "credentials", "change_password"])
        return try AuthnRequests.post(url, Body(stateToken: stateToken, oldPassword: oldPassword.value, newPassword: newPassword.value))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AuthnTransaction {
        try AuthnRequests.decode(response, hint: "the sign-in transaction expired; start the login again")
    }
}

/// Goes on from PASSWORD_WARN without changing the password, at its `skip` link on the org.
struct SkipPasswordChangeRequest: APIRequest {
    var orgURL: URL
    var transaction: AuthnTransaction

    private struct Body: Encodable { var stateToken: String }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let stateToken = try AuthnRequests.stateToken(of: transaction)
        let url = try AuthnRequests.link(transaction.links?.skip, orgURL: orgURL, default: ["api", "v1", "authn", "skip"])
        return try AuthnRequests.post(url, Body(stateToken: stateToken))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AuthnTransaction {
        try AuthnRequests.decode(response, hint: "the sign-in transaction expired; start the login again")
    }
}

extension AuthnAPI {
    /// PASSWORD_EXPIRED or PASSWORD_WARN → (usually) SUCCESS with a session token.
    func changePassword(_ transaction: AuthnTransaction, oldPassword: Secret, newPassword: Secret) async throws(IdFlowError)
        -> AuthnTransaction
    {
        try await http.send(
            ChangePasswordRequest(orgURL: orgURL, transaction: transaction, oldPassword: oldPassword, newPassword: newPassword))
    }

    /// PASSWORD_WARN → the next state, the password unchanged.
    func skipPasswordChange(_ transaction: AuthnTransaction) async throws(IdFlowError) -> AuthnTransaction {
        try await http.send(SkipPasswordChangeRequest(orgURL: orgURL, transaction: transaction))
    }
}
