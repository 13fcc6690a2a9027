import Foundation

/// Okta's classic Authn API: public endpoints, no API token, one transaction per sign-in or activation.
public struct AuthnAPI: Sendable {
    let http: HTTPClient
    let org: OrgEndpoint

    public init(http: HTTPClient, orgURL: URL) {
        self.http = http
        self.org = OrgEndpoint(orgURL: orgURL)
    }

    private struct TokenRedemption: Encodable { var token: String }
    private struct PrimaryAuthentication: Encodable { var username: String; var password: String }
    private struct PasswordReset: Encodable { var stateToken: String; var newPassword: String }

    /// Redeems an activation (or recovery) token: a user without a password gets PASSWORD_RESET.
    public func redeem(_ token: ActivationToken) async throws(IdFlowError) -> AuthnTransaction {
        try await post(org.url(["api", "v1", "authn"]), TokenRedemption(token: token.secret.value),
            hint: "the activation token is invalid, used or expired; get a new one with `idflow activate` (or reactivate)")
    }

    /// Primary authentication with a username and password.
    public func authenticate(username: String, password: Secret) async throws(IdFlowError) -> AuthnTransaction {
        try await post(org.url(["api", "v1", "authn"]), PrimaryAuthentication(username: username, password: password.value),
            hint: "check the username and password")
    }

    /// Sets the password of a PASSWORD_RESET transaction, at the `next` link the server gave (checked to be on this org).
    public func resetPassword(_ transaction: AuthnTransaction, newPassword: Secret) async throws(IdFlowError) -> AuthnTransaction {
        guard let stateToken = transaction.stateToken else {
            throw .protocolViolation("the \(transaction.status) transaction carries no stateToken")
        }
        var url = org.url(["api", "v1", "authn", "credentials", "reset_password"])
        if let href = transaction.links?.next?.href, let next = URL(string: href) {
            guard org.contains(next) else {
                throw .security("the server's next link \(Redactor.url(href)) is not on the org \(org.orgURL.absoluteString); refusing to send the password there")
            }
            url = next
        }
        return try await post(url, PasswordReset(stateToken: stateToken, newPassword: newPassword.value),
            hint: "start again with a new activation token if the transaction expired")
    }

    private func post(_ url: URL, _ body: some Encodable, hint: String) async throws(IdFlowError) -> AuthnTransaction {
        let request: HTTPRequest
        do {
            request = try .json("POST", url, body: body)
        } catch {
            throw .internalFailure("cannot encode an Authn request: \(error)")
        }
        let response = try await http.send(request)
        guard response.isSuccess else {
            throw Self.withHint(response.failure(), hint: hint)
        }
        return try response.decode(AuthnTransaction.self)
    }

    /// Adds a hint to authentication failures (401), where the server's summary alone says little.
    private static func withHint(_ error: IdFlowError, hint: String) -> IdFlowError {
        if case .okta(let status, let body, nil) = error, status == 401 {
            return .okta(status: status, body: body, hint: body.errorCode == "E0000011" ? "the transaction expired or was cancelled; start again" : hint)
        }
        return error
    }
}
