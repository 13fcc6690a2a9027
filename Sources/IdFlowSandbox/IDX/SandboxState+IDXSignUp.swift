import Foundation

/// Self-service registration through the Identity Engine (idx.md §9) under `IDXPolicy`: `enroll-profile` →
/// `select-authenticator-enroll` → `enroll-authenticator` for each authenticator of the policy → success.
/// The user is created, ACTIVE, only once the last one is enrolled.
extension SandboxState {
    static let signUpCodeSubject = "Your email verification code"

    /// `select-enroll-profile`: the sign-up form.
    func selectEnrollProfile(_ transaction: IDXTransaction) -> IDXTransaction {
        updateStep(transaction, to: .enrollProfile)
    }

    /// `enroll-profile`: a well-formed e-mail address nobody signs in with yet moves on to the authenticators;
    /// otherwise the field messages to show on `userProfile.email` (`registration.error.*`).
    func enrollProfile(_ transaction: IDXTransaction, profile: [String: JSONValue]) -> IDXOutcome {
        var errors: [String: [(text: String, key: String)]] = [:]
        for name in ["firstName", "lastName", "email"] where (profile[name]?.stringValue ?? "").isEmpty {
            errors["userProfile.\(name)", default: []].append(("This field cannot be left blank", "registration.error.isRequired"))
        }
        if let email = profile["email"]?.stringValue, !email.isEmpty {
            if !Self.isEmailShaped(email) {
                errors["userProfile.email", default: []].append(
                    ("'Email' must be in the form of an email address", "registration.error.invalidLoginEmail"))
            } else if findUser(login: email) != nil {
                errors["userProfile.email", default: []].append(Self.emailTaken)
            }
        }
        guard errors.isEmpty else { return .invalid(transaction, IDXFieldErrors(messages: errors)) }
        var stored = profile.compactMapValues(\.stringValue)
        stored["login"] = stored["email"]
        var updated = transaction
        updated.intent = "ENROLL_NEW_USER"
        return .next(updateStep(updated, to: .selectEnroll(IDXSignUp(profile: stored))))
    }

    private static let emailTaken = (text: "A user with this Email already exists", key: "registration.error.notUniqueWithinOrg")

    /// `POST /idp/idx/credential/enroll {"authenticator": {"id"}}`: the password form, or a code e-mailed to the
    /// profile's address and its form; nil for an authenticator that is not (or no longer) to enroll.
    func chooseEnrollment(_ transaction: IDXTransaction, id: String?) -> IDXTransaction? {
        guard case .selectEnroll(let signUp) = transaction.step else { return nil }
        let remaining = signUp.remaining(configuration.idx)
        switch id {
        case IDXWire.passwordAuthenticatorID where remaining.contains(.password):
            return updateStep(transaction, to: .enrollPassword(signUp))
        case IDXWire.emailAuthenticatorID where remaining.contains(.email):
            return updateStep(
                transaction, to: .enrollEmail(signUp, code: sendEmailCode(to: signUp.email, subject: Self.signUpCodeSubject)))
        default:
            return nil
        }
    }

    /// `enroll-authenticator` with the first password: the sandbox's password policy (one field message per
    /// broken rule, as E0000080 lists its causes), then the next authenticator or the new user.
    func enrollPassword(_ transaction: IDXTransaction, password: String) -> IDXOutcome {
        guard case .enrollPassword(var signUp) = transaction.step else { return .invalid(transaction, IDXFieldErrors(messages: [:])) }
        let failed = PasswordPolicy.failedRules(password, login: signUp.profile["login"] ?? "")
        guard failed.isEmpty else {
            return .invalid(
                transaction, IDXFieldErrors(messages: ["credentials.passcode": failed.map { ($0, "password.passwordRequirementsNotMet") }]))
        }
        signUp.password = StoredPassword(password)
        return continueSignUp(transaction, signUp)
    }

    /// After an enrollment: `select-authenticator-enroll` for what is left, or, when nothing is, the new ACTIVE
    /// user and the interaction code. Should the address have been taken meanwhile (another sign-up finished
    /// first), the transaction goes back to `enroll-profile` with `registration.error.notUniqueWithinOrg`.
    func continueSignUp(_ transaction: IDXTransaction, _ signUp: IDXSignUp) -> IDXOutcome {
        guard signUp.remaining(configuration.idx).isEmpty, let password = signUp.password else {
            return .next(updateStep(transaction, to: .selectEnroll(signUp)))
        }
        let created: UserRecord
        do {
            created = try createUser(profile: signUp.profile.mapValues(JSONValue.string), password: nil, activate: false)
        } catch {
            var restarted = transaction
            restarted.intent = "LOGIN"
            return .invalid(updateStep(restarted, to: .enrollProfile), IDXFieldErrors(messages: ["userProfile.email": [Self.emailTaken]]))
        }
        let now = clock.now
        var user = created
        user.password = password
        user.passwordChanged = now
        user.transition(to: .active, at: now)
        users[user.id] = user
        return .next(signIn(transaction, userId: user.id))
    }
}
