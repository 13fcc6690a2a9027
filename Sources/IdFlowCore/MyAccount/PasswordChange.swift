import Foundation
import IdFlowFoundation

/// `idflow password change`: the signed-in user changes the password, giving the old one, with the profile's stored
/// access token at the MyAccount Password API (`POST …/change-password`). The token must carry
/// `okta.myAccount.password.manage`; when the stored login says it does not, nothing is sent.
public struct PasswordChange: Sendable {
    public var oldPassword: Secret
    public var newPassword: NewPassword

    public init(oldPassword: Secret, newPassword: NewPassword) {
        self.oldPassword = oldPassword
        self.newPassword = newPassword
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> PasswordOutput {
        let org = try AuthenticatorOrg.configured(context)
        let stored = try TokenStore(directory: context.configuration.profileDirectory).loadRequired(
            profile: context.configuration.profile, hint: "log in first: \(MyAccountPassword.scopeHint)")
        let (token, _) = try MyAccountToken.resolve(context, org: org, fromStandardInput: false)
        if let granted = stored.tokens.scope?.split(separator: " "), !granted.contains(Substring(MyAccountPassword.scope)) {
            throw .authentication(
                "the access token stored for profile \(context.configuration.profile) lacks the scope \(MyAccountPassword.scope) (it has: \(granted.joined(separator: " ")))",
                hint: MyAccountPassword.scopeHint)
        }
        let login = stored.idTokenClaims?["preferred_username"]?.stringValue
        let rules = try await context.http.send(MyAccountComplexityRequest(org: org, accessToken: token))
        let choice = PasswordChoice(
            newPassword: newPassword, rules: rules, login: login, situation: "changing the password",
            retryHint: "choose a password that meets every rule in causes and run password change again", context: context)
        try await choice.send { (candidate: Secret) throws(IdFlowError) in
            try await context.http.send(
                MyAccountChangePasswordRequest(org: org, accessToken: token, oldPassword: oldPassword, newPassword: candidate))
        }
        context.message("changed the password\(login.map { " of \($0)" } ?? "")")
        return PasswordOutput(method: "change", username: login, userId: stored.idTokenClaims?["sub"]?.stringValue)
    }
}
