import Foundation

/// A custom OTP authenticator (`custom_otp`): at Okta, a hardware or software token whose seed an admin uploaded,
/// never enrolled in a transaction (`error-authenticator-enroll-custom-otp.json`: "Contact your administrator").
/// The sandbox has no token to hold, so when a policy names `custom_otp` every user with an address has one, and
/// choosing it puts a 6-digit code in the outbox (channel `custom_otp`), as a token would show it; `resend` sends
/// another, throttled like the e-mailed code.
extension SandboxState {
    /// The outbox subject of a custom OTP code.
    static let customOTPSubject = "Your custom OTP code"

    /// Whether the user has the custom OTP token: under a policy that names `custom_otp` (the sign-in's, or the
    /// password policy's recovery authenticators), every user with an address the outbox can use; under any other,
    /// nobody, so no document lists it.
    func userHasCustomOTP(userId: String) -> Bool {
        let named =
            configuration.idx.authenticators.contains(.customOTP)
            || configuration.passwordPolicy.recovery.authenticators.contains(.customOTP)
        return named && !(directory.users[userId]?.email.isEmpty ?? true)
    }

    /// `challenge {"authenticator": {"id": custom OTP}}`: a code in the outbox, unless the last one went out less than
    /// `codeResendInterval` ago.
    func sendCustomOTP(_ transaction: IDXTransaction, _ progress: IDXSignIn, user: UserRecord) -> IDXCodeRequest {
        if case .challengeCode(_, let last) = transaction.step, last.channel == .customOTP, isTooSoon(after: last) {
            return .tooSoon(transaction)
        }
        let code = sendIDXCode(to: user.email, channel: .customOTP, subject: Self.customOTPSubject)
        return .sent(updateStep(transaction, to: .challengeCode(progress, code)))
    }
}
