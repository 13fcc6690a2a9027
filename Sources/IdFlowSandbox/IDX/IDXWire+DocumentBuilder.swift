import Foundation

extension IDXWire {
    /// One Identity Engine document being written: each step's method (`IDXWire+SignInSteps.swift`,
    /// `IDXWire+EnrollSteps.swift`, `IDXWire+RecoverySteps.swift`) adds its forms, messages and authenticators,
    /// and `document(error:)` lays them out in the recordings' key order. A value, so a step cannot reach
    /// anything but the one document it is writing.
    struct DocumentBuilder {
        let view: IDXView
        let orgURL: String
        /// Validation messages by the field they are about (`credentials.passcode`, `userProfile.email`, …).
        let errors: [String: [IDXMessage]]
        /// The authenticators the step offers (the sign-in's remaining factors, or what is left to enroll).
        let offered: [IDXPolicy.Authenticator]
        /// Whether some authenticator may recover a password, so `recover` and `unlock-account` are offered.
        let recoverable: Bool

        /// `remediation`, in order.
        var forms: [OrderedJSON] = []
        /// Top-level `messages`.
        var messages: [OrderedJSON] = []
        /// `currentAuthenticator` or `currentAuthenticatorEnrollment`, with its value.
        var current: (key: String, value: OrderedJSON)?
        var authenticators: [OrderedJSON]?
        var enrollments: [OrderedJSON]?
        var enrollmentAuthenticator: OrderedJSON?
        var recoveryAuthenticator: OrderedJSON?
        /// `webauthnAutofillUIChallenge` (`identify` when the policy names passkeys), after `app` as recorded.
        var autofillChallenge: OrderedJSON?

        init(view: IDXView, orgURL: String, errors: [String: [IDXMessage]]) {
            self.view = view
            self.orgURL = orgURL
            self.errors = errors
            self.offered = view.offered
            self.recoverable = !view.passwordPolicy.recovery.authenticators.isEmpty
        }

        var transaction: IDXTransaction { view.transaction }
        var stateHandle: String { view.transaction.stateHandle }

        func href(_ path: String) -> String { "\(orgURL)/idp/idx/\(path)" }
    }
}

extension IDXWire.DocumentBuilder {
    /// Writes the transaction's step: one method per step, none sharing state but through the builder.
    mutating func addStep() {
        switch transaction.step {
        case .identify: identifyStep()
        case .challengePassword: challengePasswordStep()
        case .selectAuthenticator, .pushEnded: selectAuthenticatorStep()
        case .selectMethod(_, let authenticator): selectMethodStep(authenticator)
        case .challengeCode(_, let code): challengeCodeStep(code)
        case .challengeSecurityQuestion: challengeSecurityQuestionStep()
        case .challengeTOTP(_, let authenticator): challengeTOTPStep(authenticator)
        case .challengeTAC: challengeTACStep()
        case .challengePush: challengePushStep()
        case .oktaVerifyMissing: oktaVerifyMissingStep()
        case .enrollProfile: enrollProfileStep()
        case .selectEnroll: selectEnroll()
        case .enrollPassword: enrollPasswordStep()
        case .enrollEmail: enrollEmailStep()
        case .enrollPhoneData: enrollPhoneDataStep()
        case .enrollPhone(_, _, let code): enrollPhoneStep(code)
        case .enrollSecurityQuestion: enrollSecurityQuestionStep()
        case .enrollGoogleOTP(let enrollee, let secret): enrollGoogleOTPStep(enrollee, secret: secret)
        case .enrollWebAuthn(let enrollee, let challenge): enrollWebAuthnStep(enrollee, challenge: challenge)
        case .challengeWebAuthn(_, let challenge): challengeWebAuthnStep(challenge: challenge)
        case .promoteWebAuthn(_, let challenge): promoteWebAuthnStep(challenge: challenge)
        case .consent(_, let scopes): consentStep(scopes)
        case .success: break
        case .identifyRecovery: identifyRecoveryStep()
        case .selectUnlockAuthenticator: selectUnlockAuthenticatorStep()
        case .changePassword(_, let reason): changePasswordStep(reason)
        case .unlocked: unlockedStep()
        }
        // A recovery's factor steps name the authenticator being recovered (`recovery-select-authenticator-authenticate.json`,
        // `recovery-challenge-email.json`).
        if transaction.step.signIn?.purpose == .recoverPassword { recoveryAuthenticator = IDXWire.authenticatorObject(.password) }
    }

    /// The document: what the step wrote, in the recordings' key order, with `error` as a last top-level message,
    /// then `user`, `cancel`, `app`, and `successWithInteractionCode` once the sign-in succeeded.
    func document(error: IDXMessage?) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("stateHandle", .string(stateHandle)), ("version", "1.0.0"),
            ("expiresAt", .string(Timestamps.iso8601(transaction.expiresAt))), ("intent", .string(transaction.intent)),
        ]
        var messages = messages
        if !forms.isEmpty { members.append(("remediation", ["type": "array", "value": .array(forms)])) }
        if let error { messages.append(IDXWire.message(error)) }
        if !messages.isEmpty { members.append(("messages", ["type": "array", "value": .array(messages)])) }
        if let current { members.append((current.key, ["type": "object", "value": current.value])) }
        if let authenticators { members.append(("authenticators", ["type": "array", "value": .array(authenticators)])) }
        if let enrollments { members.append(("authenticatorEnrollments", ["type": "array", "value": .array(enrollments)])) }
        if let enrollmentAuthenticator {
            members.append(("enrollmentAuthenticator", ["type": "object", "value": enrollmentAuthenticator]))
        }
        if let recoveryAuthenticator { members.append(("recoveryAuthenticator", ["type": "object", "value": recoveryAuthenticator])) }
        if let user = view.user { members.append(("user", ["type": "object", "value": IDXWire.userValue(user)])) }
        members.append(("cancel", IDXWire.form("cancel", href: href("cancel"), fields: [], stateHandle: stateHandle)))
        members.append(
            (
                "app",
                [
                    "type": "object",
                    "value": ["name": "oidc_client", "label": "idflow sandbox app", "id": .string(transaction.request.client.id)],
                ]
            ))
        if let autofillChallenge { members.append(("webauthnAutofillUIChallenge", ["type": "object", "value": autofillChallenge])) }
        if case .success(let interactionCode, _) = transaction.step {
            members.append(("successWithInteractionCode", IDXWire.success(transaction, interactionCode: interactionCode, orgURL: orgURL)))
        }
        return .object(JSONObject(members))
    }

    // MARK: Shared by several steps

    /// `select-authenticator-authenticate` with the sign-in's remaining factors, their authenticators and the
    /// user's enrollments of them (one index for both lists).
    mutating func selectAuthenticate() {
        var enrollmentIndex = 0
        var options: [OrderedJSON] = []
        for (index, authenticator) in offered.enumerated() {
            options.append(IDXWire.authenticateOption(authenticator, index: index, view: view, enrollmentIndex: enrollmentIndex))
            enrollmentIndex += IDXWire.enrollmentObjects(authenticator, view: view).count
        }
        forms.append(
            IDXWire.form(
                "select-authenticator-authenticate", href: href("challenge"),
                fields: [["name": "authenticator", "type": "object", "options": .array(options)]], stateHandle: stateHandle))
        authenticators = offered.map { IDXWire.authenticatorObject($0) }
        enrollments = offered.flatMap { IDXWire.enrollmentObjects($0, view: view) }
    }

    /// During a challenge: the way back to another factor, when there is one (as the recordings offer it).
    mutating func otherFactors() {
        if offered.count > 1 {
            selectAuthenticate()
        } else {
            authenticators = offered.map { IDXWire.authenticatorObject($0) }
            enrollments = offered.flatMap { IDXWire.enrollmentObjects($0, view: view) }
        }
    }

    /// `select-authenticator-enroll` (and `skip`) with what is left to enroll; the enrolled ones listed.
    mutating func selectEnroll() {
        let options = offered.enumerated().map { IDXWire.enrollOption($1, index: $0) }
        forms.append(
            IDXWire.form(
                "select-authenticator-enroll", href: href("credential/enroll"),
                fields: [["name": "authenticator", "type": "object", "options": .array(options)]], stateHandle: stateHandle))
        if view.skippable { forms.append(IDXWire.form("skip", href: href("skip"), fields: [], stateHandle: stateHandle)) }
        authenticators = offered.map { IDXWire.withGracePeriod(IDXWire.authenticatorObject($0), view.gracePeriods[$0]) }
        enrollments = view.enrolled.flatMap { IDXWire.enrollmentObjects($0, view: view, withProfile: false) }
    }

    /// The `resend` form of a code or push, to put before the authenticator's own members.
    func resend() -> JSONObject { ["resend": IDXWire.form("resend", href: href("challenge/resend"), fields: [], stateHandle: stateHandle)] }
}
