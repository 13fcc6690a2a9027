import Foundation
import IdFlowFoundation

/// Sends new passwords to the MyAccount Password API until one is taken, as the expired-password change of a sign-in
/// does (``NewPassword/candidate(rules:login:refused:situation:retryHint:context:)``): each is checked against the rules
/// the server publishes first; one it refuses for a rule it does not publish (E0000080: the history) is asked again
/// at a terminal and stops a script with the server's causes.
struct PasswordChoice {
    var newPassword: NewPassword
    var rules: PasswordRules?
    var login: String?
    var situation: String
    var retryHint: String
    var context: IdFlowContext

    func send<T>(_ body: (Secret) async throws(IdFlowError) -> T) async throws(IdFlowError) -> T {
        var refused: [String]?
        while true {
            let candidate = try newPassword.candidate(
                rules: rules, login: login, refused: refused, situation: situation, retryHint: retryHint, context: context)
            do throws(IdFlowError) {
                return try await body(candidate)
            } catch {
                guard case .okta(_, let body, _) = error, body.errorCode == "E0000080" else { throw error }
                refused = body.errorCauses.isEmpty ? [body.errorSummary] : body.errorCauses.map(\.errorSummary)
            }
        }
    }
}

/// What `password change` and `password reset` print (docs/contract.md): `{"changed": true, "method", "username"?,
/// "factor"?, "password"?}`. `method` is `change` (the old password given) or `reset` (a recovery); `factor` the one
/// that proved who the user is; `password` the Password object the server answered a reset with.
public struct PasswordOutput: Encodable, Sendable, Equatable {
    public var changed = true
    public var method: String
    public var username: String?
    public var factor: String?
    public var password: MyAccountPasswordStatus?
}
