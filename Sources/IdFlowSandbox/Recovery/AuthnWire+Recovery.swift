import Foundation

/// Renders the Authn recovery states in the recorded shapes (okta-core.md §F1): `authn-password-expired.json`,
/// `authn-password-warn.json`, `authn-locked-out.json`, `authn-recovery-challenge-{email,sms}.json`,
/// `authn-recovery.json` and `authn-success-unlock.json`.
extension AuthnWire {
    static func renderRecovery(_ outcome: AuthnOutcome, orgURL: String) -> OrderedJSON {
        let authn = "\(orgURL)/api/v1/authn"
        let cancel = link("\(authn)/cancel")
        switch outcome {
        case .passwordExpired(let transaction, let user):
            return transactionBody(
                transaction, embedded: ["user": embeddedUser(user), "policy": PasswordPolicy.expiredPolicy],
                links: ["next": link("\(authn)/credentials/change_password", name: "changePassword"), "cancel": cancel]
            ).asValue
        case .passwordWarn(let transaction, let user, let days):
            return transactionBody(
                transaction, embedded: ["user": embeddedUser(user), "policy": PasswordPolicy.warnPolicy(daysToExpiry: days)],
                links: [
                    "next": link("\(authn)/credentials/change_password", name: "changePassword"),
                    "skip": link("\(authn)/skip", name: "skip"), "cancel": cancel,
                ]
            ).asValue
        case .lockedOut(let unlock):
            // No state token: the unlock link starts a transaction of its own. Without self-service unlock there is
            // nowhere to go but cancel.
            var links = JSONObject()
            if unlock { links["next"] = link("\(authn)/recovery/unlock", name: "unlock") }
            links["cancel"] = cancel
            return ["status": "LOCKED_OUT", "_embedded": [:], "_links": .object(links)]
        case .recoveryChallenge(let transaction?, let factor, let type, let relayState):
            let factorPath = "\(authn)/recovery/factors/\(factor.rawValue)"
            var body: JSONObject = [
                "stateToken": .string(transaction.stateToken), "expiresAt": .string(Timestamps.iso8601(transaction.expiresAt)),
                "status": "RECOVERY_CHALLENGE", "factorType": .string(factor.rawValue), "recoveryType": .string(type.rawValue),
            ]
            if let relayState { body["relayState"] = .string(relayState) }
            body["_links"] = [
                "next": link("\(factorPath)/verify", name: "verify"), "cancel": cancel,
                // One object here, where MFA_CHALLENGE has an array (`authn-recovery-challenge-sms.json`).
                "resend": link("\(factorPath)/resend", name: factor.rawValue.lowercased()),
            ]
            return .object(body)
        case .recoveryChallenge(nil, let factor, let type, let relayState):
            var body: JSONObject = [
                "status": "RECOVERY_CHALLENGE", "factorResult": "WAITING", "factorType": .string(factor.rawValue),
                "recoveryType": .string(type.rawValue),
            ]
            if let relayState { body["relayState"] = .string(relayState) }
            return .object(body)
        case .recovery(let transaction, let user, let question):
            guard case .object(var embeddedUser) = embeddedUser(user) else { return .null }
            embeddedUser["recovery_question"] = ["question": .string(question)]
            return transactionBody(
                transaction, recoveryType: transaction.recoveryType, embedded: ["user": .object(embeddedUser)],
                links: ["next": link("\(authn)/recovery/answer", name: "answer"), "cancel": cancel]
            ).asValue
        case .unlocked(let user):
            return ["status": "SUCCESS", "recoveryType": .string(RecoveryType.unlock.rawValue), "_embedded": ["user": embeddedUser(user)]]
        default:
            return render(outcome, orgURL: orgURL)
        }
    }
}
