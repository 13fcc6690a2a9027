import Foundation

/// Renders Authn transactions in the recorded shapes (`authn-password-reset-account-activation.json`,
/// `authn-success.json`): a SUCCESS carries no `stateToken` and no `_links`.
enum AuthnWire {
    static func render(_ outcome: AuthnOutcome, orgURL: String) -> JSONValue {
        switch outcome {
        case .passwordReset(let transaction, let user):
            var object: JSONObject = [
                "stateToken": .string(transaction.stateToken),
                "expiresAt": .string(Timestamps.iso8601(transaction.expiresAt)),
                "status": .string(transaction.status.rawValue),
            ]
            if let recoveryType = transaction.recoveryType { object["recoveryType"] = .string(recoveryType) }
            object["_embedded"] = ["user": embeddedUser(user), "policy": PasswordPolicy.authnPolicy]
            object["_links"] = [
                "next": [
                    "name": "resetPassword",
                    "href": .string("\(orgURL)/api/v1/authn/credentials/reset_password"),
                    "hints": ["allow": ["POST"]],
                ],
                "cancel": ["href": .string("\(orgURL)/api/v1/authn/cancel"), "hints": ["allow": ["POST"]]],
            ]
            return .object(object)
        case .success(let sessionToken, let expiresAt, let user):
            return [
                "expiresAt": .string(Timestamps.iso8601(expiresAt)),
                "status": .string(AuthnStatus.success.rawValue),
                "sessionToken": .string(sessionToken),
                "_embedded": ["user": embeddedUser(user)],
            ]
        }
    }

    /// `_embedded.user`: id, passwordChanged and a short profile with the org's locale defaults.
    private static func embeddedUser(_ user: UserRecord) -> JSONValue {
        [
            "id": .string(user.id),
            "passwordChanged": JSONValue(user.passwordChanged.map(Timestamps.iso8601)),
            "profile": [
                "login": .string(user.login),
                "firstName": user.profile["firstName"] ?? .null,
                "lastName": user.profile["lastName"] ?? .null,
                "locale": "en_US",
                "timeZone": "America/Los_Angeles",
            ],
        ]
    }
}
