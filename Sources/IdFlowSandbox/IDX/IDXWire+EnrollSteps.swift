import Foundation

/// The enrollment steps' documents: the sign-up profile and each authenticator's enrollment.
extension IDXWire.DocumentBuilder {
    /// The sign-up profile, with the way back to `identify`.
    mutating func enrollProfileStep() {
        forms.append(IDXWire.enrollProfile(stateHandle, orgURL: orgURL, errors: errors))
        forms.append(IDXWire.form("select-identify", href: href("identify/select"), fields: [], stateHandle: stateHandle))
    }

    /// A new password.
    mutating func enrollPasswordStep() {
        forms.append(
            IDXWire.passcodeForm(
                "enroll-authenticator", relatesTo: "$.currentAuthenticator", label: "Enter password", secret: true,
                stateHandle: stateHandle, orgURL: orgURL, errors: errors["credentials.passcode"]))
        current = ("currentAuthenticator", IDXWire.authenticatorObject(.password))
    }

    /// The code e-mailed to the new address.
    mutating func enrollEmailStep() {
        forms.append(
            IDXWire.passcodeForm(
                "enroll-authenticator", relatesTo: "$.currentAuthenticator", stateHandle: stateHandle, orgURL: orgURL,
                errors: errors["credentials.passcode"]))
        current = (
            "currentAuthenticator", IDXWire.withCodeActions(IDXWire.authenticatorObject(.email), stateHandle: stateHandle, orgURL: orgURL)
        )
    }

    /// The phone number and channel.
    mutating func enrollPhoneDataStep() {
        // `phone-enroll-data-sms-voice.json`.
        forms.append(
            IDXWire.form(
                "authenticator-enrollment-data", href: href("credential/enroll"),
                fields: [
                    [
                        "name": "authenticator", "label": "Phone",
                        "form": [
                            "value": [
                                ["name": "id", "required": true, "value": .string(IDXWire.phoneAuthenticatorID), "mutable": false],
                                IDXWire.methodChoice(["sms": "SMS", "voice": "Voice call"], order: ["sms", "voice"], required: true),
                                ["name": "phoneNumber", "required": true],
                            ]
                        ],
                    ]
                ], stateHandle: stateHandle, relatesTo: ["$.currentAuthenticator"]))
        selectEnroll()
        current = ("currentAuthenticator", IDXWire.prepend(resend(), to: IDXWire.authenticatorObject(.phone)))
    }

    /// The code sent to the new phone.
    mutating func enrollPhoneStep(_ code: IDXCode) {
        // `phone-enroll-sms-code.json`, `phone-enroll-voice-code.json`.
        forms.append(
            IDXWire.passcodeForm(
                "enroll-authenticator", relatesTo: "$.currentAuthenticator", stateHandle: stateHandle, orgURL: orgURL,
                errors: errors["credentials.passcode"]))
        selectEnroll()
        let phone = IDXWire.authenticatorObject(.phone, methods: [code.channel.rawValue])
        current = ("currentAuthenticator", IDXWire.prepend(resend(), to: phone))
        enrollmentAuthenticator = phone
    }

    /// A security question with its answer.
    mutating func enrollSecurityQuestionStep() {
        // `security-question-enroll.json`; a short answer as `error-security-question-enroll-answer-too-short.json`.
        forms.append(IDXWire.securityQuestionEnrollForm(stateHandle: stateHandle, orgURL: orgURL, errors: errors))
        selectEnroll()
        current = (
            "currentAuthenticator",
            IDXWire.with(IDXWire.authenticatorObject(.securityQuestion), [:], first: ["contextualData": IDXWire.securityQuestionContext])
        )
        enrollmentAuthenticator = IDXWire.authenticatorObject(.securityQuestion)
    }

    /// Google Authenticator's shared secret (and QR code), confirmed by a first code.
    mutating func enrollGoogleOTPStep(_ enrollee: IDXEnrollee, secret: String) {
        // `google-otp-enroll-qrcode.json`.
        forms.append(
            IDXWire.credentialsForm(
                "enroll-authenticator", relatesTo: "$.currentAuthenticator",
                fields: [
                    IDXWire.field(["name": "passcode", "label": "Enter code", "required": true], errors: errors["credentials.passcode"])
                ],
                stateHandle: stateHandle, orgURL: orgURL))
        selectEnroll()
        let login: String
        switch enrollee {
        case .signUp(let signUp): login = signUp.profile["login"] ?? signUp.email
        case .signIn: login = view.user?.login ?? ""
        }
        var context: JSONObject = [:]
        if let qrcode = IDXWire.qrcode(IDXWire.otpauthURI(secret: secret, login: login, orgURL: orgURL)) { context["qrcode"] = qrcode }
        context["sharedSecret"] = .string(secret)
        current = (
            "currentAuthenticator", IDXWire.with(IDXWire.authenticatorObject(.googleOTP), [:], first: ["contextualData": .object(context)])
        )
        enrollmentAuthenticator = IDXWire.authenticatorObject(.googleOTP)
    }
}
