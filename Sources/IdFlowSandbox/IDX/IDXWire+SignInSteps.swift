import Foundation

/// The sign-in steps' documents: identify, the password, choosing a factor and each factor's challenge.
extension IDXWire.DocumentBuilder {
    /// `identify`, with `select-enroll-profile` when sign-up is on, `unlock-account` when self-service unlock is on
    /// and some authenticator may recover, and the usernameless passkey sign-in when the policy names passkeys.
    mutating func identifyStep() {
        forms.append(IDXWire.identify(stateHandle, orgURL: orgURL))
        if view.policy.signUp {
            forms.append(IDXWire.form("select-enroll-profile", href: href("enroll"), fields: [], stateHandle: stateHandle))
        }
        if view.passwordPolicy.lockout.selfServiceUnlock, recoverable {
            forms.append(IDXWire.unlockAccountForm(stateHandle: stateHandle, orgURL: orgURL))
        }
        if let challenge = transaction.autofillChallenge { webAuthnAutofill(challenge: challenge) }
    }

    /// The password challenge, whose enrollment carries `recover` when some authenticator may recover it.
    mutating func challengePasswordStep() {
        forms.append(IDXWire.challengePassword(stateHandle, orgURL: orgURL))
        let enrollment = IDXWire.enrollmentObject(.password, view: view)
        // `03-challenge-authenticator-password.json`: the password's `recover`, where some authenticator may recover.
        current = (
            "currentAuthenticatorEnrollment",
            recoverable ? IDXWire.withRecover(enrollment, stateHandle: stateHandle, orgURL: orgURL) : enrollment
        )
        authenticators = [IDXWire.authenticatorObject(.password)]
        enrollments = [enrollment]
    }

    /// Choosing the next factor, after a push that ended without approval with its message first.
    mutating func selectAuthenticatorStep() {
        if case .pushEnded(_, let outcome) = transaction.step { messages.append(IDXWire.pushEnded(outcome)) }
        if !offered.isEmpty { selectAuthenticate() }
    }

    /// Choosing the phone's channel (SMS or voice) or Okta Verify's method (push or code).
    mutating func selectMethodStep(_ authenticator: IDXPolicy.Authenticator) {
        // `phone-verification-data-select-method.json`, `okta-verify-select-method-push-totp.json`.
        let isPhone = authenticator == .phone
        var fields: [OrderedJSON] = [
            ["name": "id", "required": true, "value": .string(IDXWire.authenticatorID(authenticator)), "mutable": false]
        ]
        if isPhone {
            fields.append(IDXWire.methodChoice(["sms": "SMS", "voice": "Voice call"], order: ["sms", "voice"], required: true))
            fields.append([
                "name": "enrollmentId", "required": true, "value": .string(view.enrollments.phone?.id ?? ""), "mutable": false,
            ])
        } else {
            fields.append(IDXWire.oktaVerifyMethodChoice(required: true))
            fields.append(
                [
                    "name": "autoChallenge", "type": "boolean", "label": "Send push automatically", "required": false, "value": false,
                    "mutable": true,
                ])
        }
        let relatesTo = isPhone ? "$.currentAuthenticatorEnrollment" : "$.currentAuthenticator"
        forms.append(
            IDXWire.form(
                "authenticator-verification-data", href: href("challenge"),
                fields: [
                    ["name": "authenticator", "label": .string(IDXWire.displayName(authenticator)), "form": ["value": .array(fields)]]
                ],
                stateHandle: stateHandle, relatesTo: [relatesTo]))
        otherFactors()
        current =
            isPhone
            ? (
                "currentAuthenticatorEnrollment",
                IDXWire.prepend(resend(), to: IDXWire.enrollmentObject(.phone, view: view), after: "profile")
            )
            : ("currentAuthenticator", IDXWire.prepend(resend(), to: IDXWire.authenticatorObject(.oktaVerify)))
    }

    /// A code sent by e-mail, SMS or voice, with `resend` (and `poll` for e-mail).
    mutating func challengeCodeStep(_ code: IDXCode) {
        if code.channel == .customOTP { return challengeCustomOTPStep() }
        forms.append(
            IDXWire.passcodeForm(
                "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment", stateHandle: stateHandle, orgURL: orgURL,
                errors: errors["credentials.passcode"]))
        otherFactors()
        if code.channel == .email {
            current = (
                "currentAuthenticatorEnrollment",
                IDXWire.withCodeActions(IDXWire.enrollmentObject(.email, view: view), stateHandle: stateHandle, orgURL: orgURL)
            )
        } else {
            current = (
                "currentAuthenticatorEnrollment",
                IDXWire.prepend(
                    resend(), to: IDXWire.enrollmentObject(.phone, view: view, methods: [code.channel.rawValue]), after: "profile")
            )
        }
    }

    /// The security question the user enrolled, asked back.
    mutating func challengeSecurityQuestionStep() {
        // `security-question-challenge.json`.
        let question = view.enrollments.securityQuestion
        forms.append(
            IDXWire.credentialsForm(
                "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment",
                fields: [
                    [
                        "name": "questionKey", "label": .string(question?.question ?? ""), "required": true,
                        "value": .string(question?.questionKey ?? ""), "visible": false, "mutable": false,
                    ],
                    IDXWire.field(
                        ["name": "answer", "label": "Answer", "required": true, "secret": true], errors: errors["credentials.answer"]),
                ], stateHandle: stateHandle, orgURL: orgURL))
        otherFactors()
        let asked: OrderedJSON = ["questionKey": .string(question?.questionKey ?? ""), "question": .string(question?.question ?? "")]
        current = (
            "currentAuthenticatorEnrollment",
            IDXWire.with(
                IDXWire.enrollmentObject(.securityQuestion, view: view), [:],
                first: ["profile": asked, "contextualData": ["enrolledQuestion": asked]])
        )
    }

    /// A time-based code from Okta Verify (with `send` for a push instead) or Google Authenticator.
    mutating func challengeTOTPStep(_ authenticator: IDXPolicy.Authenticator) {
        if authenticator == .oktaVerify {
            // `okta-verify-totp-challenge.json`: the code in `credentials.totp`; `send` for a push instead.
            forms.append(
                IDXWire.credentialsForm(
                    "challenge-authenticator", relatesTo: "$.currentAuthenticator",
                    fields: [
                        IDXWire.field(
                            ["name": "totp", "label": "Enter code", "required": true, "visible": true],
                            errors: errors["credentials.totp"])
                    ], stateHandle: stateHandle, orgURL: orgURL))
            otherFactors()
            current = (
                "currentAuthenticator",
                IDXWire.prepend(
                    ["send": IDXWire.form("send", href: href("challenge/send"), fields: [], stateHandle: stateHandle)],
                    to: IDXWire.authenticatorObject(.oktaVerify, methods: ["totp"]))
            )
        } else {
            // `google-otp-challenge.json`.
            forms.append(
                IDXWire.credentialsForm(
                    "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment",
                    fields: [
                        IDXWire.field(
                            ["name": "passcode", "label": "Enter code", "required": true], errors: errors["credentials.passcode"])
                    ],
                    stateHandle: stateHandle, orgURL: orgURL))
            otherFactors()
            current = ("currentAuthenticatorEnrollment", IDXWire.enrollmentObject(.googleOTP, view: view))
        }
    }

    /// A push sent to Okta Verify, polled until it is answered.
    mutating func challengePushStep() {
        // `okta-verify-push-challenge-poll.json`: with the number challenge, `contextualData.correctAnswer`.
        forms.append(
            IDXWire.form(
                "challenge-poll", href: href("authenticators/poll"), fields: [], stateHandle: stateHandle,
                relatesTo: ["$.currentAuthenticator"], refresh: IDXWire.pollRefresh))
        selectAuthenticate()
        let resend = IDXWire.form(
            "resend", href: href("challenge"),
            fields: [
                [
                    "name": "authenticator", "required": true,
                    "value": ["methodType": "push", "id": .string(SandboxState.authenticatorId)], "visible": false,
                    "mutable": false,
                ]
            ], stateHandle: stateHandle)
        var pushing = IDXWire.prepend(["resend": resend], to: IDXWire.authenticatorObject(.oktaVerify, methods: ["push"]))
        if let answer = view.correctAnswer {
            pushing = IDXWire.prepend(["resend": resend, "contextualData": ["correctAnswer": .string(answer)]], to: pushing)
        }
        current = ("currentAuthenticator", pushing)
    }

    /// Okta Verify asked for without an enrolled device: a message, no form.
    mutating func oktaVerifyMissingStep() {
        messages.append(
            IDXWire.message(
                "Okta Verify is not set up for this user: enroll this device first (idflow enroll), then sign in again.",
                key: "idflow.sandbox.oktaVerifyNotEnrolled"))
    }
}
