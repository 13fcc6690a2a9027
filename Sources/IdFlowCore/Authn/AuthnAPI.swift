import Foundation
import IdFlowFoundation

/// Okta's classic Authn API: public endpoints, no API token, one transaction per sign-in or activation. A
/// facade that builds each request value and sends it, so callers hold the org once.
public struct AuthnAPI: Sendable {
    let http: HTTPClient
    let orgURL: URL

    public init(http: HTTPClient, orgURL: URL) {
        self.http = http
        self.orgURL = orgURL
    }

    /// Redeems an activation (or recovery) token: a user without a password gets PASSWORD_RESET.
    public func redeem(_ token: ActivationToken) async throws(IdFlowError) -> AuthnTransaction {
        try await http.send(RedeemTokenRequest(orgURL: orgURL, token: token))
    }

    /// Primary authentication with a username and password.
    public func authenticate(username: String, password: Secret) async throws(IdFlowError) -> AuthnTransaction {
        try await http.send(PrimaryAuthenticationRequest(orgURL: orgURL, username: username, password: password))
    }

    /// Sets the password of a PASSWORD_RESET transaction, at the `next` link the server gave (checked to be on this org).
    public func resetPassword(_ transaction: AuthnTransaction, newPassword: Secret) async throws(IdFlowError) -> AuthnTransaction {
        try await http.send(ResetPasswordRequest(orgURL: orgURL, transaction: transaction, newPassword: newPassword))
    }
}
