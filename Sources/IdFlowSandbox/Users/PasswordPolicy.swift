/// The sandbox's one password policy, also advertised in Authn `_embedded.policy.complexity`.
///
/// Each failed rule is reported separately where the answer allows it (E0000001 causes at user creation, the
/// Identity Engine's messages) so a client can show the user every rule they broke; Authn's E0000080 lists the whole
/// policy instead, as Okta does.
enum PasswordPolicy {
    static let minLength = 8

    /// The `_embedded.policy` object of an activation's PASSWORD_RESET transaction (same keys as the recording).
    static var authnPolicy: OrderedJSON {
        ["expiration": ["passwordExpireDays": 0], "complexity": complexity(excludeUsername: false)]
    }

    /// `_embedded.policy` of PASSWORD_EXPIRED: the complexity alone (`authn-password-expired.json`).
    static var expiredPolicy: OrderedJSON { ["complexity": complexity(excludeUsername: false)] }

    /// `_embedded.policy` of PASSWORD_WARN: days left, complexity and age (`authn-password-warn.json`).
    static func warnPolicy(daysToExpiry: Int) -> OrderedJSON {
        ["expiration": ["passwordExpireDays": .int(daysToExpiry)], "complexity": complexity(excludeUsername: true), "age": age]
    }

    /// `_embedded.policy` of a recovery's PASSWORD_RESET (`authn-password-reset-after-recovery-answer.json`).
    static var recoveryPolicy: OrderedJSON {
        ["expiration": ["passwordExpireDays": 0], "complexity": complexity(excludeUsername: true), "age": age]
    }

    /// The rules as Authn publishes them; `excludeUsername` (a boolean, as the PASSWORD_WARN recording has it) where
    /// the recording of that state shows it.
    static func complexity(excludeUsername: Bool) -> OrderedJSON {
        var object: JSONObject = ["minLength": .int(minLength), "minLowerCase": 1, "minUpperCase": 1, "minNumber": 1, "minSymbol": 0]
        if excludeUsername { object["excludeUsername"] = true }
        return .object(object)
    }

    /// No minimum age; the history of one every new password is checked against (`SandboxState.refusal(of:for:)`).
    static let age: OrderedJSON = ["minAgeMinutes": 0, "historyCount": 1]

    /// The policy in one sentence, as Okta puts it in E0000080's cause (`error-E0000080-password-complexity.json`).
    static let requirements =
        "Passwords must have at least \(minLength) characters, a lowercase letter, an uppercase letter, a number, no parts of your username"

    /// The rules `password` breaks for a user whose login is `login`, in a fixed order; empty means it passes.
    static func failedRules(_ password: String, login: String) -> [String] {
        var failures: [String] = []
        if password.count < minLength {
            failures.append("Passwords must have at least \(minLength) characters.")
        }
        if !password.contains(where: \.isLowercase) {
            failures.append("Passwords must have at least one lowercase letter.")
        }
        if !password.contains(where: \.isUppercase) {
            failures.append("Passwords must have at least one uppercase letter.")
        }
        if !password.contains(where: \.isNumber) {
            failures.append("Passwords must have at least one number.")
        }
        // Okta ignores username parts shorter than 3 characters; "a@x.io" must not ban every "a".
        let localPart = login.split(separator: "@", maxSplits: 1).first.map(String.init) ?? login
        if localPart.count >= 3, password.lowercased().contains(localPart.lowercased()) {
            failures.append("Passwords must not contain parts of your username.")
        }
        return failures
    }
}
