import IdFlowFoundation

/// The password states Authn may answer a right password with (okta-core.md §F1): PASSWORD_EXPIRED is answered
/// with a change, the old password sent again; PASSWORD_WARN with a change when a new password was given, else
/// skipped, the warning kept for the output. Whatever follows (SUCCESS, an MFA step) is the caller's.
struct AuthnPasswordStates {
    let authn: AuthnAPI
    let username: String
    let oldPassword: Secret
    let newPassword: NewPassword
    let context: IdFlowContext

    struct Outcome {
        var transaction: AuthnTransaction
        var warning: PasswordExpiryWarning?
        var changed = false
    }

    func resolve(_ transaction: AuthnTransaction) async throws(IdFlowError) -> Outcome {
        switch transaction.status {
        case "PASSWORD_EXPIRED":
            let changed = try await change(transaction, situation: "the password of \(username) has expired")
            return Outcome(transaction: changed, changed: true)
        case "PASSWORD_WARN":
            let days = transaction.embedded?.policy?.expiration?.passwordExpireDays
            let warning = PasswordExpiryWarning(
                daysToExpiry: days,
                message: "the password of \(username) expires " + (days.map { "in \($0) day\($0 == 1 ? "" : "s")" } ?? "soon"))
            if newPassword.given != nil {
                return Outcome(transaction: try await change(transaction, situation: warning.message), changed: true)
            }
            context.notice(warning.notice)
            return Outcome(transaction: try await authn.skipPasswordChange(transaction), warning: warning)
        default:
            return Outcome(transaction: transaction)
        }
    }

    /// Sends new passwords until one is taken: each is checked against the published rules first; one the server
    /// refuses for a rule it does not publish (E0000080: history, a common password) is asked again at a terminal.
    private func change(_ transaction: AuthnTransaction, situation: String) async throws(IdFlowError) -> AuthnTransaction {
        let rules = transaction.embedded?.policy?.complexity
        let login = transaction.user?.profile?.login ?? username
        let retry = "choose a password that meets every rule in causes and log in again with the old one and \(NewPassword.options)"
        let choice = PasswordChoice(
            newPassword: newPassword, rules: rules, login: login, situation: situation, retryHint: retry, context: context)
        let done = try await choice.send { (candidate: Secret) throws(IdFlowError) in
            try await authn.changePassword(transaction, oldPassword: oldPassword, newPassword: candidate)
        }
        context.message("changed the password of \(login)")
        return done
    }
}
