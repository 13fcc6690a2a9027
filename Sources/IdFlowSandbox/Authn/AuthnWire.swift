import Foundation

/// Renders Authn transactions in the recorded shapes (`authn-password-reset-account-activation.json`,
/// `authn-success.json`): a SUCCESS carries no `stateToken` and no `_links`.
enum AuthnWire {
    static func render(_ outcome: AuthnOutcome, orgURL: String) -> OrderedJSON {
        switch outcome {
        case .passwordReset(let transaction, let user):
            // An activation shows the recorded activation policy and names the link `resetPassword`; a recovery the
            // policy of `authn-password-reset-after-recovery-answer.json` (with `age`), and `password`, as recorded.
            let activation = transaction.recoveryType == .accountActivation
            return transactionBody(
                transaction, recoveryType: transaction.recoveryType,
                embedded: [
                    "user": embeddedUser(user), "policy": activation ? PasswordPolicy.authnPolicy : PasswordPolicy.recoveryPolicy,
                ],
                links: [
                    "next": link(
                        "\(orgURL)/api/v1/authn/credentials/reset_password", name: activation ? "resetPassword" : "password"),
                    "cancel": link("\(orgURL)/api/v1/authn/cancel"),
                ]
            ).asValue
        case .success(let sessionToken, let expiresAt, let user):
            return [
                "expiresAt": .string(Timestamps.iso8601(expiresAt)),
                "status": .string(AuthnStatus.success.rawValue),
                "sessionToken": .string(sessionToken),
                "_embedded": ["user": embeddedUser(user)],
            ]
        case .mfaRequired(let transaction, let user, let factors):
            let policyInfo = JSONObject(factors.map { ($0.enrollment.pushMethodId, ["autoPushEnabled": false] as OrderedJSON) })
            return transactionBody(
                transaction,
                embedded: [
                    "user": embeddedUser(user),
                    "factors": .array(factors.map { PushFactorWire.factor($0, orgURL: orgURL, links: true) }),
                    "policy": rememberDevicePolicy(factorsPolicyInfo: .object(policyInfo)),
                ],
                links: ["cancel": link("\(orgURL)/api/v1/authn/cancel")]
            ).asValue
        case .mfaEnroll(let transaction, let user):
            return transactionBody(
                transaction,
                embedded: ["user": embeddedUser(user), "factors": [PushFactorWire.enrollableFactor(orgURL: orgURL)]],
                links: ["cancel": link("\(orgURL)/api/v1/authn/cancel")]
            ).asValue
        case .passwordExpired, .passwordWarn, .lockedOut, .recoveryChallenge, .recovery, .unlocked:
            return renderRecovery(outcome, orgURL: orgURL)
        case .mfaChallenge(let transaction, let user, let factor, let result):
            let verify = "\(orgURL)/api/v1/authn/factors/\(factor.enrollment.pushMethodId)/verify"
            var body = transactionBody(transaction, factorResult: result, embedded: [:], links: [:])
            // The WAITING recording (okta-auth-swift) shows the whole factor and the policy; the
            // REJECTED and TIMEOUT ones (Okta's reference) a short factor and no policy.
            let embedded: OrderedJSON =
                result == "WAITING"
                ? [
                    "user": embeddedUser(user), "factor": PushFactorWire.factor(factor, orgURL: orgURL, links: false),
                    "policy": rememberDevicePolicy(factorsPolicyInfo: .null),
                ]
                : ["user": embeddedUser(user), "factor": PushFactorWire.shortFactor(factor)]
            body["_embedded"] = embedded
            body["_links"] = [
                "next": ["name": .string(result == "WAITING" ? "poll" : "verify"), "href": .string(verify), "hints": ["allow": ["POST"]]],
                "cancel": link("\(orgURL)/api/v1/authn/cancel"),
                "prev": link("\(orgURL)/api/v1/authn/previous"),
                "resend": [["name": "push", "href": .string(verify + "/resend"), "hints": ["allow": ["POST"]]]],
            ]
            return .object(body)
        }
    }

    /// `stateToken`, `expiresAt`, `status`, `relayState` when the transaction has one, then `_embedded` and `_links`, in
    /// the recorded order.
    static func transactionBody(
        _ transaction: AuthnTransactionRecord, factorResult: String? = nil, recoveryType: RecoveryType? = nil, embedded: JSONObject,
        links: JSONObject
    ) -> JSONObject {
        var body: JSONObject = [
            "stateToken": .string(transaction.stateToken),
            "expiresAt": .string(Timestamps.iso8601(transaction.expiresAt)),
            "status": .string(transaction.status.rawValue),
        ]
        if let factorResult { body["factorResult"] = .string(factorResult) }
        if let recoveryType { body["recoveryType"] = .string(recoveryType.rawValue) }
        if let relayState = transaction.relayState { body["relayState"] = .string(relayState) }
        body["_embedded"] = .object(embedded)
        body["_links"] = .object(links)
        return body
    }

    /// A transaction link: `{"name"?, "href", "hints": {"allow": ["POST"]}}`.
    static func link(_ href: String, name: String? = nil) -> OrderedJSON {
        var object = JSONObject()
        if let name { object["name"] = .string(name) }
        object["href"] = .string(href)
        object["hints"] = ["allow": ["POST"]]
        return .object(object)
    }

    /// `_embedded.policy` of an MFA step: remembering the device is not offered.
    private static func rememberDevicePolicy(factorsPolicyInfo: OrderedJSON) -> OrderedJSON {
        [
            "allowRememberDevice": false, "rememberDeviceLifetimeInMinutes": 0, "rememberDeviceByDefault": false,
            "factorsPolicyInfo": factorsPolicyInfo,
        ]
    }

    /// `_embedded.user`: id, passwordChanged and a short profile with the org's locale defaults.
    static func embeddedUser(_ user: UserRecord) -> OrderedJSON {
        [
            "id": .string(user.id),
            "passwordChanged": OrderedJSON(user.passwordChanged.map(Timestamps.iso8601)),
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
