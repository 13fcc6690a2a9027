import Foundation

/// The recovery and unlock steps' documents, and the new password a reset or an expiry asks for.
extension IDXWire.DocumentBuilder {
    /// `identify-recovery`: who recovers.
    mutating func identifyRecoveryStep() {
        forms.append(IDXWire.identifyRecoveryForm(stateHandle: stateHandle, orgURL: orgURL))
    }

    /// Choosing the factor that unlocks the account.
    mutating func selectUnlockAuthenticatorStep() {
        forms.append(IDXWire.unlockSelectForm(offered, view: view, stateHandle: stateHandle, orgURL: orgURL))
        authenticators = offered.map { IDXWire.authenticatorObject($0) }
        enrollments = offered.map { IDXWire.anonymousEnrollment($0) }
    }

    /// A new password after recovery, on expiry, or (skippable) when it is about to expire.
    mutating func changePasswordStep(_ reason: IDXPasswordChange) {
        // `recovery-reset-authenticator.json`, `password-expired-reenroll-authenticator.json`,
        // `password-expiry-warning.json` (which lists no authenticator and no recovery authenticator).
        forms.append(
            IDXWire.passcodeForm(
                IDXWire.passwordChangeName(reason), relatesTo: "$.currentAuthenticator", label: "New password", secret: true,
                stateHandle: stateHandle, orgURL: orgURL, errors: errors["credentials.passcode"]))
        var daysToExpiry: Int?
        if case .expiring(let days) = reason {
            daysToExpiry = days
            forms.append(IDXWire.form("skip", href: href("skip"), fields: [], stateHandle: stateHandle))
            messages.append(IDXWire.message(IDXWire.passwordExpiring))
        }
        let password = IDXWire.with(
            IDXWire.authenticatorObject(.password), ["settings": IDXWire.passwordSettings(daysToExpiry: daysToExpiry)])
        current = ("currentAuthenticator", password)
        authenticators = daysToExpiry == nil ? [IDXWire.authenticatorObject(.password)] : []
        enrollments = view.enrolled.map { IDXWire.enrollmentObject($0, view: view, withProfile: false) }
        if daysToExpiry == nil { recoveryAuthenticator = password }
    }

    /// The account is unlocked: a message, no form.
    mutating func unlockedStep() {
        messages.append(IDXWire.message(IDXWire.accountUnlocked))
    }
}
