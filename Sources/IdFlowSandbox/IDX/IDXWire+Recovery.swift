import Foundation

/// The recovery documents' parts (idx.md §12.3–§12.5): the password's `recover`, `identify-recovery`, the new-password
/// forms with the password policy in `settings`, `select-authenticator-unlock-account`, and their messages.
extension IDXWire {
    /// What Okta calls the org in `idx.password.expiring.message`.
    static let orgName = "idflow sandbox"

    /// The password policy as `currentAuthenticator.value.settings` shows it to someone choosing a new password
    /// (`recovery-reset-authenticator.json`): the sandbox's own complexity rules (`PasswordPolicy`), the username
    /// excluded, and a history of one (the current password is refused); `daysToExpiry` when it is about to expire
    /// (`password-expiry-warning.json`).
    static func passwordSettings(daysToExpiry: Int? = nil) -> OrderedJSON {
        var settings: JSONObject = [
            "complexity": with(complexity, ["excludeUsername": true, "excludeAttributes": .array([])]),
            "age": PasswordPolicy.age,
        ]
        if let daysToExpiry { settings["daysToExpiry"] = .int(daysToExpiry) }
        return .object(settings)
    }

    private static var complexity: OrderedJSON { PasswordPolicy.authnPolicy["complexity"] ?? [:] }

    /// The rules in words, as Okta spells them in `password.passwordRequirementsNotMet`
    /// (`error-recovery-reset-password-requirements.json`), from the same complexity the settings show.
    static var passwordRequirements: String {
        func count(_ key: String) -> Int {
            if case .int(let value)? = complexity[key] { return value }
            return 0
        }
        var rules = ["at least \(count("minLength")) characters"]
        for (key, rule) in [
            ("minLowerCase", "a lowercase letter"), ("minUpperCase", "an uppercase letter"), ("minNumber", "a number"),
            ("minSymbol", "a symbol"),
        ] where count(key) > 0 {
            rules.append(rule)
        }
        rules.append("no parts of your username")
        return "Password requirements: \(rules.joined(separator: ", ")). Your password cannot be your current password."
    }

    /// A new password refused by the rules or the history: one message for both, with every rule, as Okta sends it.
    static var passwordRequirementsNotMet: IDXMessage {
        IDXMessage(
            text: "Password requirements were not met. \(passwordRequirements)", key: "password.passwordRequirementsNotMet",
            params: [.string(passwordRequirements)])
    }

    /// The INFO beside `reenroll-authenticator-warning` (`password-expiry-warning.json`).
    static let passwordExpiring = IDXMessage(
        text: "When your password expires, you will have to change your password before you can login to your \(orgName) account.",
        key: "idx.password.expiring.message", params: [.string(orgName)], severity: .info)

    /// The terminal INFO of an unlock (`unlock-account-success.json`).
    static let accountUnlocked = IDXMessage(
        text: "Your account is now unlocked!", key: "oie.selfservice.unlock_user.success.message", params: [], severity: .info)

    /// The password authenticator (or enrollment) with its `recover` first, as the recordings put it.
    static func withRecover(_ password: OrderedJSON, stateHandle: String, orgURL: String) -> OrderedJSON {
        prepend(["recover": form("recover", href: "\(orgURL)/idp/idx/recover", fields: [], stateHandle: stateHandle)], to: password)
    }

    /// `unlock-account` beside `identify` (`identify-with-recover-and-unlock-account.json`).
    static func unlockAccountForm(stateHandle: String, orgURL: String) -> OrderedJSON {
        form("unlock-account", href: "\(orgURL)/idp/idx/unlock-account", fields: [], stateHandle: stateHandle)
    }

    /// `identify-recovery` (`recovery-identify-recovery.json`): the username alone, posted to `identify`.
    static func identifyRecoveryForm(stateHandle: String, orgURL: String) -> OrderedJSON {
        form(
            "identify-recovery", href: "\(orgURL)/idp/idx/identify", fields: [["name": "identifier", "label": "Username"]],
            stateHandle: stateHandle)
    }

    /// The form's name for why a new password is asked for.
    static func passwordChangeName(_ reason: IDXPasswordChange) -> String {
        switch reason {
        case .reset: return "reset-authenticator"
        case .expired: return "reenroll-authenticator"
        case .expiring: return "reenroll-authenticator-warning"
        }
    }

    /// `select-authenticator-unlock-account` (`unlock-account-select-authenticator.json`): the username and the recovery
    /// authenticators, whose options relate to enrollments the document lists without ids (the user is not known).
    static func unlockSelectForm(_ offered: [IDXPolicy.Authenticator], view: IDXView, stateHandle: String, orgURL: String)
        -> OrderedJSON
    {
        let options = offered.enumerated().map { authenticateOption($1, index: $0, view: view, enrollmentKnown: false) }
        return form(
            "select-authenticator-unlock-account", href: "\(orgURL)/idp/idx/challenge",
            fields: [
                ["name": "identifier", "label": "Username", "required": true],
                ["name": "authenticator", "type": "object", "options": .array(options)],
            ], stateHandle: stateHandle)
    }

    /// An enrollment of someone not yet named: the authenticator without an id (`unlock-account-select-authenticator.json`).
    static func anonymousEnrollment(_ authenticator: IDXPolicy.Authenticator) -> OrderedJSON {
        var object = authenticatorObject(authenticator).objectValue ?? JSONObject()
        object["id"] = nil
        return .object(object)
    }
}
