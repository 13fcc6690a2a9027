import Foundation
import IdFlowFoundation

/// Sends new passwords until the server takes one (an Authn password change, the MyAccount Password API): each is
/// checked against the rules the server publishes first (`NewPassword.candidate`); one it refuses for a rule it does
/// not publish (E0000080: the history, a common password) is asked again at a terminal and stops a script with the
/// server's causes.
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
