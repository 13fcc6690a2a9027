import Foundation

/// Two screens of the Identity Engine after the factors (`IDXScreensPolicy.swift` for their configuration):
/// - enrollment grace periods: a required authenticator a user lacks may be put off with `skip` while its grace
///   lasts, by date on the sandbox clock or by a count of skips; after that the enrollment is enforced;
/// - consent: an app configured in `idx.consent` asks the user to consent to its scopes once; a grant is remembered
///   per user and app (as Okta keeps consent grants), a refusal ends the transaction as recorded
///   (`terminal-enduser-email-consent-denied.json`: "Operation cancelled by user.").
extension SandboxState {
    // MARK: Grace periods

    /// Whether every required authenticator `userId` still lacks is within its grace period, so `skip` is offered.
    func gracePeriodsOpen(_ missing: [IDXPolicy.Authenticator], userId: String) -> Bool {
        !missing.isEmpty && missing.allSatisfy { graceLasts($0, userId: userId) }
    }

    private func graceLasts(_ authenticator: IDXPolicy.Authenticator, userId: String) -> Bool {
        guard let period = configuration.idx.gracePeriods[authenticator] else { return false }
        if let expiry = period.expiry { return clock.now < expiry }
        return remainingSkips(authenticator, period, userId: userId) > 0
    }

    private func remainingSkips(_ authenticator: IDXPolicy.Authenticator, _ period: IDXGracePeriod, userId: String) -> Int {
        max(0, (period.skips ?? 0) - (idx.graceSkips[Self.graceKey(userId, authenticator)] ?? 0))
    }

    private static func graceKey(_ userId: String, _ authenticator: IDXPolicy.Authenticator) -> String {
        "\(userId) \(authenticator.rawValue)"
    }

    /// The `gracePeriod` of each authenticator that has one, as the recordings write it: `{"type": "BY_DATE_TIME",
    /// "expiry"}` or `{"type": "BY_SKIP_COUNT", "remainingSkips"}` (`authenticator-enroll-grace-period*.json`).
    func gracePeriodObjects(userId: String) -> [IDXPolicy.Authenticator: OrderedJSON] {
        var objects: [IDXPolicy.Authenticator: OrderedJSON] = [:]
        for (authenticator, period) in configuration.idx.gracePeriods {
            if let expiry = period.expiry {
                objects[authenticator] = ["type": "BY_DATE_TIME", "expiry": .string(IDXWire.graceExpiry(expiry))]
            } else {
                objects[authenticator] = [
                    "type": "BY_SKIP_COUNT", "remainingSkips": .int(remainingSkips(authenticator, period, userId: userId)),
                ]
            }
        }
        return objects
    }

    /// `skip` at a sign-in's `select-authenticator-enroll` while every missing enrollment is in its grace period:
    /// a skip counted for each counted by skips, and the sign-in goes on without them; nil anywhere else.
    func skipGracePeriod(_ transaction: IDXTransaction) -> IDXTransaction? {
        guard case .signIn(let progress) = transaction.step.enrollee else { return nil }
        let missing = missingRequired(userId: progress.userId)
        guard gracePeriodsOpen(missing, userId: progress.userId) else { return nil }
        for authenticator in missing where configuration.idx.gracePeriods[authenticator]?.skips != nil {
            idx.graceSkips[Self.graceKey(progress.userId, authenticator), default: 0] += 1
        }
        idx.graceSkipped.insert(transaction.stateHandle)
        return continueSignIn(transaction, progress)
    }

    /// Whether this transaction put off the missing enrollments already (one skip per sign-in).
    func skippedGracePeriod(_ transaction: IDXTransaction) -> Bool {
        idx.graceSkipped.contains(transaction.stateHandle)
    }

    // MARK: Consent

    /// The scopes the user must consent to before this sign-in's code is issued: those `idx.consent` lists for the
    /// app and the request asked for, unless the user granted them to the app before; nil when none.
    func consentToAsk(_ transaction: IDXTransaction, userId: String) -> [String]? {
        let client = transaction.request.client.id
        guard let listed = configuration.idx.consent[client], !idx.consents.contains(Self.consentKey(userId, client)) else {
            return nil
        }
        let asked = transaction.request.scopes.filter(listed.contains)
        return asked.isEmpty ? nil : asked
    }

    private static func consentKey(_ userId: String, _ client: String) -> String { "\(userId) \(client)" }

    /// `POST /idp/idx/consent {"consent": true|false}` at the consent step: granted, remembered and signed in;
    /// refused, the transaction ends (nil). `.invalid` without a boolean answer.
    func answerConsent(_ transaction: IDXTransaction, granted: Bool) -> IDXTransaction? {
        guard case .consent(let userId, _) = transaction.step else { return transaction }
        guard granted else {
            idx.transactions[transaction.stateHandle] = nil
            return nil
        }
        idx.consents.insert(Self.consentKey(userId, transaction.request.client.id))
        return signIn(transaction, userId: userId)
    }
}
