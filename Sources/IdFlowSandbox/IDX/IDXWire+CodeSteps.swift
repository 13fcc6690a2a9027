import Foundation

/// The documents of the two codes a user types that no authenticator app shows: a Temporary Access Code an admin
/// handed over, and a custom OTP token's code (which the sandbox puts in the outbox).
extension IDXWire.DocumentBuilder {
    /// `authenticator-verification-tac.json`: the code in `credentials.passcode` (`secret`), the user's TAC enrollment
    /// as `currentAuthenticatorEnrollment`; no `resend`, since nothing is sent.
    mutating func challengeTACStep() {
        forms.append(
            IDXWire.passcodeForm(
                "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment", secret: true, stateHandle: stateHandle,
                orgURL: orgURL, errors: errors["credentials.passcode"]))
        otherFactors()
        current = ("currentAuthenticatorEnrollment", IDXWire.enrollmentObject(.tac, view: view))
    }

    /// `authenticator-verification-custom-otp.json`: `credentials.passcode` (`required`, `visible`) and the
    /// enrollment, with `resend` first: the recording has none (a real token makes its own codes), but the sandbox's
    /// codes come from the outbox, so a user who lost one may ask for another.
    mutating func challengeCustomOTPStep() {
        forms.append(
            IDXWire.credentialsForm(
                "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment",
                fields: [
                    IDXWire.field(
                        ["name": "passcode", "label": "Enter code", "required": true, "visible": true],
                        errors: errors["credentials.passcode"])
                ], stateHandle: stateHandle, orgURL: orgURL))
        otherFactors()
        current = ("currentAuthenticatorEnrollment", IDXWire.prepend(resend(), to: IDXWire.enrollmentObject(.customOTP, view: view)))
    }
}

extension IDXWire {
    /// A user's custom OTP enrollment id (`uft…`, as the recording's), the same every time it is listed.
    static func customOTPEnrollmentID(userId: String) -> String {
        "uft" + String(userId.dropFirst(3).prefix(17))
    }
}
