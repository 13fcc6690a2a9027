/// The sandbox's one password policy, also advertised in Authn `_embedded.policy.complexity`.
///
/// Each failed rule is reported separately (E0000080 causes, or E0000001 causes at user creation)
/// so a client can show the user every rule they broke, not just the first.
enum PasswordPolicy {
    static let minLength = 8

    /// The `_embedded.policy` object of a PASSWORD_RESET transaction (same keys as the recording).
    static var authnPolicy: JSONValue {
        [
            "expiration": ["passwordExpireDays": 0],
            "complexity": [
                "minLength": .int(minLength),
                "minLowerCase": 1,
                "minUpperCase": 1,
                "minNumber": 1,
                "minSymbol": 0,
            ],
        ]
    }

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
