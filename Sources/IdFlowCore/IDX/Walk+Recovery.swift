import Foundation
import IdFlowFoundation

/// Forgotten, expired, expiring passwords and locked accounts in the Identity Engine (idx.md §12.3–12.5):
/// `--recover` and `--unlock` take the `recover` capability and the `unlock-account` remediation as soon as a
/// document offers them; the new password of `reset-authenticator` and `reenroll-authenticator` comes from
/// `NewPassword` (checked against the rules the document publishes), never from the old password's answer; an
/// expiring password is skipped with a warning unless a new one was given.
extension IDX.Walk {
    /// The forms that set a new password, and the one of them that may be skipped.
    static let newPasswordForms: Set<String> = ["reset-authenticator", "reenroll-authenticator", "reenroll-authenticator-warning"]
    static let expiryWarningForm = "reenroll-authenticator-warning"
    /// The messages-only documents after which the user signs in again (`SignInAgain`): an unlocked account, a
    /// password reset whose policy does not sign the user in.
    static let signInAgainKeys: Set<String> = ["oie.selfservice.unlock_user.success.message", "idx.recovery.completed"]

    /// Prepares `document` for the next step: the recovery or unlock asked for, the new password, or the skip of an
    /// expiring one.
    mutating func answerPasswordForms(_ document: IDX.Document) throws(IdFlowError) {
        if let identifier = answers.lookup("identifier")?.value { lastIdentifier = identifier }
        if login.recover, !recoveryStarted, document.form(named: "recover") != nil {
            recoveryStarted = true
            wanted = "recover"
            return
        }
        if login.unlock, !unlockStarted, document.form(named: "unlock-account") != nil {
            unlockStarted = true
            wanted = "unlock-account"
            return
        }
        // The recorded unlock form does not mark `authenticator` required, yet the server needs one: a script that
        // named none verifies by e-mail, which every user has.
        if !atTerminal, answers.lookup("authenticator") == nil,
            document.remediations.contains(where: { $0.name == "select-authenticator-unlock-account" })
        {
            answers.answer("authenticator", with: "okta_email")
            automatic.insert("authenticator")
        }
        // An explicit `--answer credentials.passcode` wins, as everywhere.
        guard let form = document.remediations.first(where: { Self.newPasswordForms.contains($0.name) }),
            answers.lookup("credentials.passcode") == nil
        else { return }
        let settings = document.resolve("$.currentAuthenticator")?["settings"]
        if form.name == Self.expiryWarningForm, login.newPassword.given == nil, document.form(named: "skip") != nil {
            let days = settings?["daysToExpiry"]?.intValue
            // The recorded message says what happens at expiry, not when; the days are in the settings.
            let serverMessage = document.messages.first { $0.key == "idx.password.expiring.message" }?.message
            let message = days.map { "the password of \(lastIdentifier ?? "the user") expires in \($0) day\($0 == 1 ? "" : "s")" }
            let warning = PasswordExpiryWarning(
                daysToExpiry: days, message: message ?? serverMessage ?? "the password of \(lastIdentifier ?? "the user") expires soon")
            context.notice(warning.notice)
            passwordWarning = warning
            wanted = "skip"
            return
        }
        let rules = PasswordRules(identityEngineSettings: settings)
        let refused = document.offersAgain(form) ? document.errors.map(\.message) : nil
        let who = lastIdentifier ?? "the user"
        let situation =
            switch form.name {
            case "reset-authenticator": "the password of \(who) is being reset"
            case Self.expiryWarningForm: "the password of \(who) expires soon"
            default: "the password of \(who) has expired"
            }
        if !atTerminal {
            // A script's one new password; otherwise the transaction is kept and `--resume` goes on from here.
            let broken = refused ?? login.newPassword.given.map { rules?.failedRules($0.value, login: lastIdentifier) ?? [] }
            guard let given = login.newPassword.given, broken?.isEmpty == true else {
                var pending = pending(form, form.fill(answers, in: document), document)
                pending.formHint =
                    broken == nil
                    ? "\(situation): give the new password with \(NewPassword.options), and --resume with the transaction"
                    : "the new password was not accepted (\(broken!.joined(separator: " "))): give another with "
                        + "\(NewPassword.options), and --resume with the transaction"
                throw .idxPending(pending)
            }
            fillNewPassword(given)
            return
        }
        fillNewPassword(
            try login.newPassword.candidate(
                rules: rules, login: lastIdentifier, refused: refused, situation: situation,
                retryHint: "give another with --resume and \(NewPassword.options)", context: context))
    }

    mutating func fillNewPassword(_ password: Secret) {
        answers.answer("credentials.passcode", with: password.value)
        automatic.insert("credentials.passcode")
        newPasswordSent = true
    }

    /// Whether `document` ends this transaction with the user to sign in again (the account was unlocked, or the
    /// password reset without signing in).
    func endsWithSignInAgain(_ document: IDX.Document) -> Bool {
        document.remediations.isEmpty && document.successWithInteractionCode == nil
            && document.messages.contains { $0.key.map(Self.signInAgainKeys.contains) == true }
    }

    /// A refused identify or password (E0000004) says why where the org will tell (`RefusedSignIn`).
    func explainRefusal(_ error: IdFlowError, _ document: IDX.Document) async -> IdFlowError {
        guard document.errors.first?.key == "errors.E0000004", let lastIdentifier else { return error }
        return await RefusedSignIn.explain(error, username: lastIdentifier, context: context)
    }
}
