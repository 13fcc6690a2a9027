import Foundation

/// The second factor of an Identity Engine sign-in (`IDXPolicy.secondFactor`): a code e-mailed to the user's
/// primary address (the outbox), or a push to the user's app-authenticator enrollment, the very challenge Authn
/// push sign-in sends (`createPushChallenge`), so `idflow challenges` lists it and `idflow resolve` answers it.
extension SandboxState {
    /// `POST /idp/idx/challenge {"authenticator": {"id", "methodType"}}` (`select-authenticator-authenticate`,
    /// and the push's `resend`): e-mails a new code, or sends a new push (withdrawing one still waiting); nil for an
    /// authenticator this step does not offer.
    func chooseAuthenticator(_ transaction: IDXTransaction, id: String?, clientOS: String) -> IDXCodeRequest? {
        let userId: String
        switch transaction.step {
        case .selectAuthenticator(let id), .challengeEmail(let id, _), .challengePush(let id, _), .pushEnded(let id, _):
            userId = id
        default:
            return nil
        }
        switch (configuration.idx.secondFactor, id) {
        case (.email, IDXWire.emailAuthenticatorID):
            guard let user = users[userId] else { return nil }
            if case .challengeEmail(_, let last) = transaction.step, isTooSoon(after: last) { return .tooSoon(transaction) }
            let code = sendEmailCode(to: user.email, subject: "Your sign-in verification code")
            return .sent(updateStep(transaction, to: .challengeEmail(userId: userId, code: code)))
        case (.oktaVerify, Self.authenticatorId):
            if case .challengePush(_, let waiting) = transaction.step { closeWaitingChallenge(waiting) }
            guard let enrollment = activeEnrollments(userId: userId).last else {
                return .sent(updateStep(transaction, to: .oktaVerifyMissing(userId: userId)))
            }
            let challenge = createPushChallenge(
                enrollmentId: enrollment.id,
                request: PushRequest(userVerification: configuration.pushUserVerification, clientOS: clientOS))
            return .sent(updateStep(transaction, to: .challengePush(userId: userId, transactionId: challenge.transactionId)))
        default:
            return nil
        }
    }

    /// How long Okta makes a person wait between two codes of one transaction; sooner, nothing is sent.
    public static let codeResendInterval: TimeInterval = 30

    /// The top-level message of a code asked for sooner than `codeResendInterval` after the last one.
    static let codeResendTooSoon = IDXWire.message(
        "Please wait \(Int(codeResendInterval)) seconds before trying again.", key: "oie.tooManyRequests")

    /// Whether `code` went out too recently for another to be sent.
    func isTooSoon(after code: IDXEmailCode) -> Bool {
        clock.now.timeIntervalSince(code.sentAt) < Self.codeResendInterval
    }

    /// A new 6-digit code in the outbox for `address`.
    func sendEmailCode(to address: String, subject: String) -> IDXEmailCode {
        IDXEmailCode(value: sendCode(to: address, subject: subject), sentAt: clock.now)
    }

    /// `challenge/answer` with an e-mailed code (sign-in or sign-up): the current code goes on (success, or the
    /// sign-up's next authenticator); any other leaves the step as it was with `api.authn.error.PASSCODE_INVALID`
    /// on `credentials.passcode`.
    func answerEmailCode(_ transaction: IDXTransaction, passcode: String) -> IDXOutcome {
        let invalid = IDXFieldErrors(messages: ["credentials.passcode": [("Invalid code. Try again.", "api.authn.error.PASSCODE_INVALID")]])
        switch transaction.step {
        case .challengeEmail(let userId, let code):
            guard ConstantTime.equals(passcode, code.value) else { return .invalid(transaction, invalid) }
            return .next(signIn(transaction, userId: userId))
        case .enrollEmail(var signUp, let code):
            guard ConstantTime.equals(passcode, code.value) else { return .invalid(transaction, invalid) }
            signUp.emailVerified = true
            return continueSignUp(transaction, signUp)
        default:
            return .invalid(transaction, invalid)
        }
    }

    /// `challenge/resend`: a new code replaces the old one (which stops working), unless the last one is younger
    /// than `codeResendInterval`; nil outside a code step.
    func resendEmailCode(_ transaction: IDXTransaction) -> IDXCodeRequest? {
        switch transaction.step {
        case .challengeEmail(let userId, let last):
            guard let user = users[userId] else { return nil }
            if isTooSoon(after: last) { return .tooSoon(transaction) }
            return .sent(
                updateStep(
                    transaction,
                    to: .challengeEmail(userId: userId, code: sendEmailCode(to: user.email, subject: "Your sign-in verification code"))))
        case .enrollEmail(let signUp, let last):
            if isTooSoon(after: last) { return .tooSoon(transaction) }
            return .sent(
                updateStep(transaction, to: .enrollEmail(signUp, code: sendEmailCode(to: signUp.email, subject: Self.signUpCodeSubject))))
        default:
            return nil
        }
    }

    /// `authenticators/poll` (and introspect) during a push: still waiting → as it was; approved → the
    /// interaction code; denied or expired → `pushEnded`, whose document offers the push again.
    func pollPush(_ transaction: IDXTransaction) -> IDXTransaction {
        guard case .challengePush(let userId, let transactionId) = transaction.step else { return transaction }
        switch pushChallenges[transactionId]?.currentStatus(at: clock.now) ?? .expired {
        case .waiting: return transaction
        case .approved: return signIn(transaction, userId: userId)
        case .denied: return updateStep(transaction, to: .pushEnded(userId: userId, outcome: .rejected))
        case .expired: return updateStep(transaction, to: .pushEnded(userId: userId, outcome: .expired))
        }
    }
}
