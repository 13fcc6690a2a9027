import Foundation
import OneTimePasscode

/// The factors of an Identity Engine sign-in after the password (idx.md §12): a code e-mailed or sent to the user's
/// phone (the outbox), the security question, a TOTP code (Google Authenticator, Okta Verify), or a push to the
/// user's app-authenticator enrollment, the very challenge Authn push sign-in sends (`createPushChallenge`), so
/// `idflow challenges` lists it and `idflow resolve` answers it.
extension SandboxState {
    /// How long Okta makes a person wait between two codes of one transaction; sooner, nothing is sent.
    public static let codeResendInterval: TimeInterval = 30

    /// The top-level message of a code asked for sooner than `codeResendInterval` after the last one, as Okta throttles
    /// (`error-429-authenticator-verification-email-polling.json`, `error-429-too-many-request.json`: HTTP 429, an
    /// `i18n` key without params).
    static let codeResendTooSoon = IDXMessage(text: "Too many requests", key: "tooManyRequests")

    /// `api.authn.error.PASSCODE_INVALID`, on a wrong e-mail, phone or Okta Verify code (recorded with empty params).
    static let passcodeInvalid = IDXMessage(text: "Invalid code. Try again.", key: "api.authn.error.PASSCODE_INVALID", params: [])
    /// A wrong Google Authenticator code (`error-google-otp-invalid-passcode.json`, no params).
    static let softTokenInvalid = IDXMessage(
        text: "API error: Your code doesn't match our records. Please try again.", key: "authfactor.challenge.soft_token.invalid_passcode")
    /// A TOTP code of a time step already used (`error-google-otp-used-passcode.json`).
    static let softTokenUsed = IDXMessage(
        text: "API error: Each code can only be used once. Please wait for a new code and try again.",
        key: "authfactor.challenge.soft_token.used_passcode")
    /// A wrong security answer. No recording of it was found; the key is the one Okta's sign-in widget has for a wrong
    /// answer to a question factor.
    static let answerInvalid = IDXMessage(
        text: "Your answer doesn't match our records. Please try again.", key: "authfactor.challenge.question_factor.answer_invalid")

    /// `POST /idp/idx/challenge {"authenticator": {"id", "methodType"}}` (`select-authenticator-authenticate`,
    /// `authenticator-verification-data`, and the push's `resend`): sends a code, asks the question, waits for a TOTP
    /// code, or sends a push (withdrawing one still waiting); a phone or Okta Verify without a method asks which; nil
    /// for an authenticator this step does not offer.
    func chooseAuthenticator(_ transaction: IDXTransaction, id: String?, methodType: String?, clientOS: String) -> IDXCodeRequest? {
        guard let progress = transaction.step.signIn, transaction.step.enrollee == nil,
            let authenticator = IDXWire.authenticator(id: id), usableFactors(progress).contains(authenticator),
            let user = directory.users[progress.userId]
        else { return nil }
        if case .challengePush(_, let waiting) = transaction.step { closeWaitingChallenge(waiting) }
        switch (authenticator, methodType) {
        case (.email, _):
            if case .challengeCode(_, let last) = transaction.step, last.channel == .email, isTooSoon(after: last) {
                return .tooSoon(transaction)
            }
            let code = sendIDXCode(to: user.email, channel: .email, subject: Self.codeSubject(progress.purpose))
            return .sent(updateStep(transaction, to: .challengeCode(progress, code)))
        case (.phone, let method?):
            guard let channel = IDXCodeChannel(rawValue: method), channel.authenticator == .phone,
                let phone = idx.enrollments[progress.userId]?.phone
            else { return nil }
            if case .challengeCode(_, let last) = transaction.step, last.channel == channel, isTooSoon(after: last) {
                return .tooSoon(transaction)
            }
            let code = sendIDXCode(to: phone.phoneNumber, channel: channel, subject: Self.codeSubject(progress.purpose))
            return .sent(updateStep(transaction, to: .challengeCode(progress, code)))
        case (.oktaVerify, nil) where !configuration.idx.oktaVerifyTOTP:
            return .sent(sendPush(transaction, progress, clientOS: clientOS))
        case (.oktaVerify, "totp") where !configuration.idx.oktaVerifyTOTP:
            return nil
        case (.phone, nil), (.oktaVerify, nil):
            return .sent(updateStep(transaction, to: .selectMethod(progress, authenticator)))
        case (.securityQuestion, _):
            return .sent(updateStep(transaction, to: .challengeSecurityQuestion(progress)))
        case (.googleOTP, _), (.oktaVerify, "totp"):
            return .sent(updateStep(transaction, to: .challengeTOTP(progress, authenticator)))
        case (.oktaVerify, "push"):
            return .sent(sendPush(transaction, progress, clientOS: clientOS))
        case (.webAuthn, _):
            return .sent(challengeWebAuthn(transaction, progress))
        case (.customOTP, _):
            return sendCustomOTP(transaction, progress, user: user)
        case (.tac, _):
            return challengeTAC(transaction, progress).map(IDXCodeRequest.sent)
        default:
            return nil
        }
    }

    /// A push to the user's newest app-authenticator enrollment, with a number challenge when the policy asks.
    func sendPush(_ transaction: IDXTransaction, _ progress: IDXSignIn, clientOS: String) -> IDXTransaction {
        guard let enrollment = activeEnrollments(userId: progress.userId).last else {
            return updateStep(transaction, to: .oktaVerifyMissing(userId: progress.userId))
        }
        let challenge = createPushChallenge(
            enrollmentId: enrollment.id,
            request: PushRequest(
                userVerification: configuration.pushUserVerification, clientOS: clientOS,
                numberChallenge: configuration.idx.numberChallenge ? NumberChallenge.random() : nil))
        return updateStep(transaction, to: .challengePush(progress, transactionId: challenge.transactionId))
    }

    /// `POST /idp/idx/challenge/send` from Okta Verify's TOTP challenge (its `send` form): a push instead.
    func sendPushInstead(_ transaction: IDXTransaction, clientOS: String) -> IDXTransaction? {
        guard case .challengeTOTP(let progress, .oktaVerify) = transaction.step else { return nil }
        return sendPush(transaction, progress, clientOS: clientOS)
    }

    /// Whether `code` went out too recently for another to be sent.
    func isTooSoon(after code: IDXCode) -> Bool {
        clock.now.timeIntervalSince(code.sentAt) < Self.codeResendInterval
    }

    /// A new 6-digit code in the outbox for `address` (an e-mail address or an E.164 number), with its channel.
    func sendIDXCode(to address: String, channel: IDXCodeChannel, subject: String) -> IDXCode {
        IDXCode(value: sendCode(to: address, subject: subject, channel: channel.rawValue), sentAt: clock.now, channel: channel)
    }

    /// The message of a transaction ended for too many wrong answers (`error-factor-suspended-too-many-attempts.json`:
    /// top level, the challenge form still shown; the transaction is gone, so the next call finds it expired).
    static let factorSuspended = IDXMessage(
        text: "This factor is suspended for your account due to too many failed attempts", key: "authfactor.challenge.suspended_factor")

    /// `challenge/answer` at a factor or an enrollment (`answerFactor`, `answerEnrollment`), with the wrong answers to
    /// a secret counted (`SandboxState+CodeAttempts.swift`): the one that reaches the limit, and any answer once the
    /// user has none left, ends the transaction with `factorSuspended`.
    func answerChallenge(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome {
        let step = transaction.step
        let userId = step.userId
        guard !step.checksSecret || !codeAttemptsExhausted(userId: userId) else { return endForFailures(transaction) }
        let outcome =
            step.enrollee == nil
            ? answerFactor(transaction, credentials: credentials) : answerEnrollment(transaction, credentials: credentials)
        guard step.checksSecret else { return outcome }
        switch outcome {
        case .invalid(let again, _):
            if countCodeFailure(userId: userId, transactionFailures: transaction.codeFailures) { return endForFailures(again) }
            idx.transactions[transaction.stateHandle]?.codeFailures += 1
        case .next:
            clearCodeFailures(userId: userId)
        case .refused:
            break
        }
        return outcome
    }

    /// Ends a transaction that has had its tries; its last document still shows the step, with the message.
    private func endForFailures(_ transaction: IDXTransaction) -> IDXOutcome {
        idx.transactions[transaction.stateHandle] = nil
        return .refused(transaction, message: Self.factorSuspended)
    }

    /// `challenge/answer` during a sign-in's factor: the right code, answer or TOTP code counts the factor and goes on
    /// (`continueSignIn`); anything else leaves the step as it was with a message on the field.
    func answerFactor(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome {
        func text(_ name: String) -> String { credentials?[name]?.stringValue ?? "" }
        switch transaction.step {
        case .challengeCode(var progress, let code):
            guard accepts(text("passcode"), for: code) else {
                return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
            }
            progress.passed.append(code.channel.authenticator)
            return .next(continueSignIn(transaction, progress))
        case .challengeSecurityQuestion(var progress):
            guard let question = idx.enrollments[progress.userId]?.securityQuestion,
                question.answer.matches(Self.normalizedAnswer(text("answer")))
            else { return .invalid(transaction, IDXFieldErrors("credentials.answer", Self.answerInvalid)) }
            progress.passed.append(.securityQuestion)
            return .next(continueSignIn(transaction, progress))
        case .challengeTOTP(var progress, let authenticator):
            let field = authenticator == .oktaVerify ? "totp" : "passcode"
            let wrong = authenticator == .oktaVerify ? Self.passcodeInvalid : Self.softTokenInvalid
            switch useTOTP(text(field), of: authenticator, userId: progress.userId) {
            case .accepted:
                progress.passed.append(authenticator)
                return .next(continueSignIn(transaction, progress))
            case .used: return .invalid(transaction, IDXFieldErrors("credentials.\(field)", Self.softTokenUsed))
            case .invalid: return .invalid(transaction, IDXFieldErrors("credentials.\(field)", wrong))
            }
        case .challengeTAC(var progress):
            // `error-authenticator-verification-tac.json`: a wrong, used or expired code alike.
            guard useTAC(text("passcode"), userId: progress.userId) else {
                return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
            }
            progress.passed.append(.tac)
            return .next(continueSignIn(transaction, progress))
        default:
            return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
        }
    }

    /// Answers are compared trimmed and without regard to case.
    static func normalizedAnswer(_ answer: String) -> String {
        answer.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// What checking a TOTP code found.
    enum TOTPCheck: Equatable {
        case accepted(step: Int64)
        /// A code of a time step at or before the last accepted one.
        case used
        case invalid
    }

    /// RFC 6238 (SHA-1, 6 digits, 30 s) by the sandbox clock, one step of skew either side; a step at or before
    /// `lastStep` is refused as used.
    func checkTOTP(_ code: String, secret: TOTPSecret, lastStep: Int64?) -> TOTPCheck {
        guard code.count == 6, let step = TOTP(secret: secret).matchingStep(of: code, at: clock.now, window: 1) else { return .invalid }
        if let lastStep, step <= lastStep { return .used }
        return .accepted(step: step)
    }

    /// Checks a code against the user's Google Authenticator or newest Okta Verify enrollment, and on success records
    /// its step so it is never accepted again.
    func useTOTP(_ code: String, of authenticator: IDXPolicy.Authenticator, userId: String) -> TOTPCheck {
        switch authenticator {
        case .googleOTP:
            guard let enrollment = idx.enrollments[userId]?.googleOTP else { return .invalid }
            let check = checkTOTP(code, secret: enrollment.secret, lastStep: enrollment.lastStep)
            if case .accepted(let step) = check { idx.enrollments[userId]?.googleOTP?.lastStep = step }
            return check
        case .oktaVerify:
            guard let enrollment = activeEnrollments(userId: userId).last else { return .invalid }
            let check = checkTOTP(code, secret: enrollment.totpSecret, lastStep: enrollment.lastTOTPStep)
            if case .accepted(let step) = check { push.enrollments[enrollment.id]?.lastTOTPStep = step }
            return check
        default:
            return .invalid
        }
    }

    /// `challenge/resend`: a new code replaces the old one (which stops working), on the same channel, unless the last
    /// one is younger than `codeResendInterval`; nil outside a code step.
    func resendCode(_ transaction: IDXTransaction) -> IDXCodeRequest? {
        switch transaction.step {
        case .challengeCode(let progress, let last):
            let address =
                last.channel.authenticator == .phone
                ? idx.enrollments[progress.userId]?.phone?.phoneNumber : directory.users[progress.userId]?.email
            guard let address else { return nil }
            if isTooSoon(after: last) { return .tooSoon(transaction) }
            let subject = last.channel == .customOTP ? Self.customOTPSubject : Self.codeSubject(progress.purpose)
            let code = sendIDXCode(to: address, channel: last.channel, subject: subject)
            return .sent(updateStep(transaction, to: .challengeCode(progress, code)))
        case .enrollEmail(let enrollee, let last):
            if isTooSoon(after: last) { return .tooSoon(transaction) }
            guard let address = enrolleeEmail(enrollee) else { return nil }
            let code = sendIDXCode(to: address, channel: .email, subject: Self.signUpCodeSubject)
            return .sent(updateStep(transaction, to: .enrollEmail(enrollee, code: code)))
        case .enrollPhone(let enrollee, let number, let last):
            if isTooSoon(after: last) { return .tooSoon(transaction) }
            let code = sendIDXCode(to: number, channel: last.channel, subject: Self.phoneEnrollmentSubject)
            return .sent(updateStep(transaction, to: .enrollPhone(enrollee, phoneNumber: number, code: code)))
        default:
            return nil
        }
    }

    /// `authenticators/poll` (and introspect) during a push: still waiting → as it was; approved → the factor counts
    /// (`continueSignIn`); denied or expired → `pushEnded`, whose document offers the push again.
    func pollPush(_ transaction: IDXTransaction) -> IDXTransaction {
        guard case .challengePush(var progress, let transactionId) = transaction.step else { return transaction }
        switch push.challenges[transactionId]?.currentStatus(at: clock.now) ?? .expired {
        case .waiting: return transaction
        case .approved:
            progress.passed.append(.oktaVerify)
            return continueSignIn(transaction, progress)
        case .denied: return updateStep(transaction, to: .pushEnded(progress, outcome: .rejected))
        case .expired: return updateStep(transaction, to: .pushEnded(progress, outcome: .expired))
        }
    }
}
