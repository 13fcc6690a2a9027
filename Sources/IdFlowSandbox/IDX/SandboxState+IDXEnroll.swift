import Foundation
import OneTimePasscode

/// Enrollment through the Identity Engine (idx.md §9, §12): self-service registration (`enroll-profile` →
/// `select-authenticator-enroll` → `enroll-authenticator` for each required authenticator, then the optional ones
/// with `skip` → success; the user is created, ACTIVE, only at the end), and the required authenticators a user
/// signing in lacks.
extension SandboxState {
    static let signUpCodeSubject = "Your email verification code"
    static let phoneEnrollmentSubject = "Your phone verification code"

    /// The top-level message of a phone number that is not E.164 (`error-phone-enroll-invalid-number.json`, no key).
    static let invalidPhoneNumber = IDXMessage(text: "Unable to initiate factor enrollment: Invalid Phone Number.", key: nil)
    /// A security answer shorter than `SecurityQuestions.minimumAnswerLength`
    /// (`error-security-question-enroll-answer-too-short.json`).
    static let answerTooShort = IDXMessage(
        text: "The security question answer must be at least \(SecurityQuestions.minimumAnswerLength) characters in length",
        key: "securityQuestion.answer.tooShort.arg", params: [.int(SecurityQuestions.minimumAnswerLength)])
    /// A custom question left empty, or a question key not in the catalogue (no recording; Okta's generic
    /// validation key).
    static let fieldBlank = IDXMessage(text: "This field cannot be left blank", key: "model.validation.field.blank")
    static let questionUnknown = IDXMessage(text: "Choose one of the questions offered", key: "model.validation.field.value.not.allowed")

    /// `select-enroll-profile`: the sign-up form.
    func selectEnrollProfile(_ transaction: IDXTransaction) -> IDXTransaction {
        updateStep(transaction, to: .enrollProfile)
    }

    /// `enroll-profile`: a well-formed e-mail address nobody signs in with yet moves on to the authenticators;
    /// otherwise the field messages to show on `userProfile.email` (`registration.error.*`).
    func enrollProfile(_ transaction: IDXTransaction, profile: [String: OrderedJSON]) -> IDXOutcome {
        var errors: [String: [IDXMessage]] = [:]
        for name in ["firstName", "lastName", "email"] where (profile[name]?.stringValue ?? "").isEmpty {
            errors["userProfile.\(name)", default: []].append(
                IDXMessage(text: "This field cannot be left blank", key: "registration.error.isRequired"))
        }
        if let email = profile["email"]?.stringValue, !email.isEmpty {
            if !Self.isEmailShaped(email) {
                errors["userProfile.email", default: []].append(
                    IDXMessage(text: "'Email' must be in the form of an email address", key: "registration.error.invalidLoginEmail"))
            } else if findUser(login: email) != nil {
                errors["userProfile.email", default: []].append(Self.emailTaken)
            }
        }
        guard errors.isEmpty else { return .invalid(transaction, IDXFieldErrors(messages: errors)) }
        var stored = profile.compactMapValues(\.stringValue)
        stored["login"] = stored["email"]
        var updated = transaction
        updated.intent = "ENROLL_NEW_USER"
        return .next(updateStep(updated, to: .selectEnroll(.signUp(IDXSignUp(profile: stored)))))
    }

    private static let emailTaken = IDXMessage(text: "A user with this Email already exists", key: "registration.error.notUniqueWithinOrg")

    /// What `select-authenticator-enroll` offers: at sign-up the required authenticators not yet enrolled, in order,
    /// then (skippable) the optional ones; at sign-in the required ones the user lacks, or, when the sign-in needs
    /// more factors than the user has, the optional ones. Okta Verify is never among them (`idflow enroll`).
    func remainingToEnroll(_ enrollee: IDXEnrollee) -> (authenticators: [IDXPolicy.Authenticator], skippable: Bool) {
        let policy = configuration.idx
        switch enrollee {
        case .signUp(let signUp):
            let required = policy.required.filter { $0.enrollsInTransaction && !signUp.has($0) }
            if !required.isEmpty { return (required, false) }
            return (policy.optional.filter { $0.enrollsInTransaction && !signUp.has($0) }, true)
        case .signIn(let progress):
            let missing = missingRequired(userId: progress.userId)
            if !missing.isEmpty { return (missing, gracePeriodsOpen(missing, userId: progress.userId)) }
            return (policy.optional.filter { $0.enrollsInTransaction && !userHas($0, userId: progress.userId) }, false)
        }
    }

    func enrolleeEmail(_ enrollee: IDXEnrollee) -> String? {
        switch enrollee {
        case .signUp(let signUp): return signUp.email
        case .signIn(let progress): return directory.users[progress.userId]?.email
        }
    }

    /// `POST /idp/idx/credential/enroll {"authenticator": {"id", "methodType", "phoneNumber"}}`
    /// (`select-authenticator-enroll`, and the phone's `authenticator-enrollment-data`): the authenticator's
    /// enrollment form (a code sent first for e-mail and, once the number is known, for the phone); a number that is
    /// not E.164 goes back to `select-authenticator-enroll` with Okta's message; nil for an authenticator that is not
    /// (or no longer) to enroll.
    func chooseEnrollment(_ transaction: IDXTransaction, authenticator form: OrderedJSON?) -> IDXOutcome? {
        guard let enrollee = transaction.step.enrollee, let authenticator = IDXWire.authenticator(id: form?["id"]?.stringValue),
            remainingToEnroll(enrollee).authenticators.contains(authenticator)
        else { return nil }
        switch authenticator {
        case .password:
            return .next(updateStep(transaction, to: .enrollPassword(enrollee)))
        case .email:
            guard let address = enrolleeEmail(enrollee) else { return nil }
            let code = sendIDXCode(to: address, channel: .email, subject: Self.signUpCodeSubject)
            return .next(updateStep(transaction, to: .enrollEmail(enrollee, code: code)))
        case .phone:
            guard let number = form?["phoneNumber"]?.stringValue, !number.isEmpty else {
                return .next(updateStep(transaction, to: .enrollPhoneData(enrollee)))
            }
            let method = form?["methodType"]?.stringValue ?? "sms"
            guard PhoneEnrollment.isE164(number), let channel = IDXCodeChannel(rawValue: method), channel.authenticator == .phone else {
                return .refused(updateStep(transaction, to: .selectEnroll(enrollee)), message: Self.invalidPhoneNumber)
            }
            let code = sendIDXCode(to: number, channel: channel, subject: Self.phoneEnrollmentSubject)
            return .next(updateStep(transaction, to: .enrollPhone(enrollee, phoneNumber: number, code: code)))
        case .securityQuestion:
            return .next(updateStep(transaction, to: .enrollSecurityQuestion(enrollee)))
        case .googleOTP:
            return .next(updateStep(transaction, to: .enrollGoogleOTP(enrollee, secret: TOTPSecret.random().base32)))
        case .webAuthn:
            return .next(beginWebAuthnEnrollment(transaction, enrollee))
        case .oktaVerify, .customOTP, .tac:
            return nil
        }
    }

    /// `challenge/answer` during an enrollment: the password (the sandbox's password policy, one field message per
    /// broken rule), the e-mail or phone code, the security question and answer, or Google Authenticator's first code.
    /// Accepted, the authenticator is enrolled and the enrollment (or the sign-in) goes on.
    func answerEnrollment(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome {
        func text(_ name: String) -> String { credentials?[name]?.stringValue ?? "" }
        switch transaction.step {
        case .enrollPassword(.signUp(var signUp)):
            let failed = PasswordPolicy.failedRules(text("passcode"), login: signUp.profile["login"] ?? "")
            guard failed.isEmpty else {
                return .invalid(
                    transaction,
                    IDXFieldErrors(messages: [
                        "credentials.passcode": failed.map { IDXMessage(text: $0, key: "password.passwordRequirementsNotMet") }
                    ]))
            }
            signUp.password = StoredPassword(text("passcode"))
            return continueSignUp(transaction, signUp)
        case .enrollEmail(let enrollee, let code):
            guard accepts(text("passcode"), for: code) else {
                return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
            }
            return enrolled(.email, transaction, enrollee) { $0.emailVerified = true }
        case .enrollPhone(let enrollee, let number, let code):
            guard accepts(text("passcode"), for: code) else {
                return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
            }
            let phone = PhoneEnrollment(id: RandomToken.oktaID(prefix: "sms"), phoneNumber: number, created: clock.now)
            return enrolled(.phone, transaction, enrollee) { $0.enrollments.phone = phone }
        case .enrollSecurityQuestion(let enrollee):
            let key = text("questionKey")
            let question = key == SecurityQuestions.customKey ? text("question") : SecurityQuestions.question(forKey: key)
            var errors: [String: [IDXMessage]] = [:]
            if key == SecurityQuestions.customKey, text("question").trimmingCharacters(in: .whitespaces).isEmpty {
                errors["credentials.question"] = [Self.fieldBlank]
            } else if question == nil {
                errors["credentials.questionKey"] = [Self.questionUnknown]
            }
            if Self.normalizedAnswer(text("answer")).count < SecurityQuestions.minimumAnswerLength {
                errors["credentials.answer"] = [Self.answerTooShort]
            }
            guard errors.isEmpty, let question else { return .invalid(transaction, IDXFieldErrors(messages: errors)) }
            let enrollment = SecurityQuestionEnrollment(
                id: RandomToken.oktaID(prefix: "qae"), questionKey: key, question: question,
                answer: StoredPassword(Self.normalizedAnswer(text("answer"))), created: clock.now)
            return enrolled(.securityQuestion, transaction, enrollee) { $0.enrollments.securityQuestion = enrollment }
        case .enrollGoogleOTP(let enrollee, let secretText):
            guard let secret = TOTPSecret(base32: secretText) else { return .invalid(transaction, IDXFieldErrors(messages: [:])) }
            guard case .accepted(let step) = checkTOTP(text("passcode"), secret: secret, lastStep: nil) else {
                return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.softTokenInvalid))
            }
            let enrollment = TOTPEnrollment(id: RandomToken.oktaID(prefix: "uft"), secret: secret, lastStep: step, created: clock.now)
            return enrolled(.googleOTP, transaction, enrollee) { $0.enrollments.googleOTP = enrollment }
        default:
            return .invalid(transaction, IDXFieldErrors("credentials.passcode", Self.passcodeInvalid))
        }
    }

    /// Records an enrollment: into the sign-up (`apply`), or into the user's enrollments, where it also counts as a
    /// factor of the sign-in (possession was just proven).
    func enrolled(
        _ authenticator: IDXPolicy.Authenticator, _ transaction: IDXTransaction, _ enrollee: IDXEnrollee,
        apply: (inout IDXSignUp) -> Void
    ) -> IDXOutcome {
        switch enrollee {
        case .signUp(var signUp):
            apply(&signUp)
            return continueSignUp(transaction, signUp)
        case .signIn(var progress):
            var scratch = IDXSignUp(profile: [:])
            scratch.enrollments = idx.enrollments[progress.userId] ?? IDXUserEnrollments()
            apply(&scratch)
            idx.enrollments[progress.userId] = scratch.enrollments
            if !progress.passed.contains(authenticator) { progress.passed.append(authenticator) }
            return .next(continueSignIn(transaction, progress))
        }
    }

    /// `POST /idp/idx/skip`: at sign-up, once only optional authenticators are left, finishes the enrollment; nil
    /// anywhere else.
    func skipEnrollment(_ transaction: IDXTransaction) -> IDXOutcome? {
        guard case .signUp(let signUp) = transaction.step.enrollee, remainingToEnroll(.signUp(signUp)).skippable else { return nil }
        return finishSignUp(transaction, signUp)
    }

    /// After an enrollment: `select-authenticator-enroll` for what is left (with `skip` for optional ones), or, when
    /// nothing is, the new ACTIVE user and the interaction code.
    func continueSignUp(_ transaction: IDXTransaction, _ signUp: IDXSignUp) -> IDXOutcome {
        guard remainingToEnroll(.signUp(signUp)).authenticators.isEmpty else {
            return .next(updateStep(transaction, to: .selectEnroll(.signUp(signUp))))
        }
        return finishSignUp(transaction, signUp)
    }

    /// Creates the user, ACTIVE, with what was enrolled. Should the address have been taken meanwhile (another
    /// sign-up finished first), the transaction goes back to `enroll-profile` with `registration.error.notUniqueWithinOrg`.
    private func finishSignUp(_ transaction: IDXTransaction, _ signUp: IDXSignUp) -> IDXOutcome {
        guard let password = signUp.password else { return .next(updateStep(transaction, to: .selectEnroll(.signUp(signUp)))) }
        let created: UserRecord
        do {
            created = try createUser(profile: signUp.profile.mapValues(OrderedJSON.string), password: nil, activate: false)
        } catch {
            var restarted = transaction
            restarted.intent = "LOGIN"
            return .invalid(updateStep(restarted, to: .enrollProfile), IDXFieldErrors("userProfile.email", Self.emailTaken))
        }
        let now = clock.now
        var user = created
        if let id = signUp.userId {
            // A passkey was enrolled for this id (its user handle): the user takes it.
            directory.users[created.id] = nil
            user = UserRecord(
                id: id, status: created.status, created: created.created, activated: created.activated,
                statusChanged: created.statusChanged, lastLogin: nil, lastUpdated: created.lastUpdated, passwordChanged: nil,
                password: nil, profile: created.profile, activationToken: nil)
        }
        user.password = password
        user.passwordChanged = now
        user.transition(to: .active, at: now)
        directory.users[user.id] = user
        idx.enrollments[user.id] = signUp.enrollments
        return .next(signIn(transaction, userId: user.id))
    }
}
