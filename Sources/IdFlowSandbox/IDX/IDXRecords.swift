import Foundation

/// Where an Identity Engine transaction stands (idx.md §10, §12): which form it waits for.
enum IDXStep: Sendable {
    /// `identify`: who is signing in.
    case identify
    /// `challenge-authenticator` for the password of `login` (the user may not exist: nothing is revealed
    /// before the password is checked).
    case challengePassword(login: String)
    /// `select-authenticator-authenticate`: the factors the sign-in still needs, among the user's enrollments.
    case selectAuthenticator(IDXSignIn)
    /// `authenticator-verification-data`: an authenticator with more than one method (phone, Okta Verify) was chosen
    /// without saying which.
    case selectMethod(IDXSignIn, IDXPolicy.Authenticator)
    /// `challenge-authenticator` for a code sent to the user's address or phone (the current code only).
    case challengeCode(IDXSignIn, IDXCode)
    /// `challenge-authenticator` for the user's security question.
    case challengeSecurityQuestion(IDXSignIn)
    /// `challenge-authenticator` for a TOTP code: Google Authenticator (`credentials.passcode`) or Okta Verify
    /// (`credentials.totp`).
    case challengeTOTP(IDXSignIn, IDXPolicy.Authenticator)
    /// `challenge-authenticator` for the user's Temporary Access Code (`SandboxState+IDXTAC.swift`).
    case challengeTAC(IDXSignIn)
    /// `challenge-poll` while the push `transactionId` waits for an answer.
    case challengePush(IDXSignIn, transactionId: String)
    /// The push was denied or expired: an ERROR message and `select-authenticator-authenticate` to retry.
    case pushEnded(IDXSignIn, outcome: IDXPushOutcome)
    /// The policy asks for Okta Verify and the user has no app-authenticator enrollment: an ERROR message,
    /// nothing but `cancel`.
    case oktaVerifyMissing(userId: String)
    /// `enroll-profile` (sign-up, idx.md §9): the new user's profile.
    case enrollProfile
    /// `select-authenticator-enroll` (with `skip` once only optional ones are left, at sign-up).
    case selectEnroll(IDXEnrollee)
    /// `enroll-authenticator` for the first password.
    case enrollPassword(IDXEnrollee)
    /// `enroll-authenticator` for the e-mail address of the profile, with the code sent to it.
    case enrollEmail(IDXEnrollee, code: IDXCode)
    /// `authenticator-enrollment-data`: the phone's number and method.
    case enrollPhoneData(IDXEnrollee)
    /// `enroll-authenticator` for the code sent to the phone number being enrolled.
    case enrollPhone(IDXEnrollee, phoneNumber: String, code: IDXCode)
    /// `enroll-authenticator` for a security question and its answer.
    case enrollSecurityQuestion(IDXEnrollee)
    /// `enroll-authenticator` for Google Authenticator: the QR code of `secret`, and a first code to prove it.
    case enrollGoogleOTP(IDXEnrollee, secret: String)
    /// `enroll-authenticator` for a passkey: `activationData` with `challenge` (base64url), answered with `clientData`
    /// and `attestation`.
    case enrollWebAuthn(IDXEnrollee, challenge: String)
    /// `challenge-authenticator` for a passkey: `challengeData` with `challenge`, answered with an assertion.
    case challengeWebAuthn(IDXSignIn, challenge: String)
    /// `enroll-authenticator-promotion` with `skip` (passkey promotion): the sign-in has its factors, and a user without
    /// a passkey is offered one first; enrolling or skipping both finish it.
    case promoteWebAuthn(IDXSignIn, challenge: String)
    /// `consent` (`idx.consent`): the app asks the user to consent to `scopes` before the code is issued.
    case consent(userId: String, scopes: [String])
    /// Signed in (or signed up): the success document with its interaction code.
    case success(interactionCode: String, userId: String)
    /// `identify-recovery` (idx.md §12.3): a password recovery begun before the user was named asks who it is for.
    case identifyRecovery
    /// `select-authenticator-unlock-account` (idx.md §12.5): who is locked out, and which recovery authenticator
    /// proves it.
    case selectUnlockAuthenticator
    /// A new password (idx.md §12.3, §12.4): after a recovery, for a password that has expired, or (with `skip`) for
    /// one about to.
    case changePassword(IDXSignIn, IDXPasswordChange)
    /// The account was unlocked (or was not locked): an INFO message and nothing to submit; the user signs in anew.
    case unlocked(userId: String)

    /// Whether the step's form checks a secret that could be guessed by trying (a one-time code, a TOTP code, a
    /// security answer), whose wrong answers are counted and limited.
    var checksSecret: Bool {
        switch self {
        case .challengeCode, .challengeSecurityQuestion, .challengeTOTP, .challengeTAC, .enrollEmail, .enrollPhone, .enrollGoogleOTP:
            return true
        default: return false
        }
    }

    /// The user the transaction is about once the sandbox has revealed who it is.
    var userId: String? {
        switch self {
        case .selectAuthenticator(let signIn), .selectMethod(let signIn, _), .challengeCode(let signIn, _),
            .challengeSecurityQuestion(let signIn), .challengeTOTP(let signIn, _), .challengePush(let signIn, _),
            .pushEnded(let signIn, _), .challengeWebAuthn(let signIn, _), .promoteWebAuthn(let signIn, _), .challengeTAC(let signIn):
            return signIn.userId
        case .oktaVerifyMissing(let userId), .success(_, let userId), .unlocked(let userId), .consent(let userId, _):
            return userId
        case .changePassword(let signIn, _):
            return signIn.userId
        case .selectEnroll(let enrollee), .enrollPassword(let enrollee), .enrollEmail(let enrollee, _), .enrollPhoneData(let enrollee),
            .enrollPhone(let enrollee, _, _), .enrollSecurityQuestion(let enrollee), .enrollGoogleOTP(let enrollee, _),
            .enrollWebAuthn(let enrollee, _):
            return enrollee.signIn?.userId
        case .identify, .challengePassword, .enrollProfile, .identifyRecovery, .selectUnlockAuthenticator:
            return nil
        }
    }

    /// The sign-in whose factors this step is about, if any.
    var signIn: IDXSignIn? {
        switch self {
        case .selectAuthenticator(let signIn), .selectMethod(let signIn, _), .challengeCode(let signIn, _),
            .challengeSecurityQuestion(let signIn), .challengeTOTP(let signIn, _), .challengePush(let signIn, _),
            .pushEnded(let signIn, _), .challengeWebAuthn(let signIn, _), .challengeTAC(let signIn):
            return signIn
        default:
            return enrollee?.signIn
        }
    }

    /// Who enrolls at this step, if it is an enrollment.
    var enrollee: IDXEnrollee? {
        switch self {
        case .selectEnroll(let enrollee), .enrollPassword(let enrollee), .enrollEmail(let enrollee, _), .enrollPhoneData(let enrollee),
            .enrollPhone(let enrollee, _, _), .enrollSecurityQuestion(let enrollee), .enrollGoogleOTP(let enrollee, _),
            .enrollWebAuthn(let enrollee, _):
            return enrollee
        default:
            return nil
        }
    }

    /// Steps whose document says the sign-in cannot go on this way (a 403 where a request led to them).
    var isRefusal: Bool {
        switch self {
        case .pushEnded, .oktaVerifyMissing: return true
        default: return false
        }
    }
}

/// A sign-in past its password: the user, and the factors passed so far (the password first). A recovery or an unlock
/// is one too, whose user proves who they are without the password (`passed` starts empty) with the password policy's
/// recovery authenticators, so that it goes through the same choice, codes and answers as a sign-in's factors.
struct IDXSignIn: Sendable {
    let userId: String
    var passed: [IDXPolicy.Authenticator] = [.password]
    var purpose = IDXPurpose.signIn
    /// A passkey answered with user verification (UV): it proved something the user has and something the user is
    /// (the PIN or biometric that unlocked it), so it counts as two factors, as Okta counts a user-verifying
    /// WebAuthn authenticator toward possession and inherence.
    var passkeyVerifiedUser = false

    /// The factors this sign-in has passed, a user-verified passkey counting twice.
    var factorCount: Int { passed.count + (passkeyVerifiedUser ? 1 : 0) }
}

/// Why a user proves who they are with a factor, and so what a passed factor leads to.
enum IDXPurpose: Sendable {
    /// The policy's further factors, then the success document.
    case signIn
    /// A forgotten password (`recover`): one recovery authenticator, then `reset-authenticator`.
    case recoverPassword
    /// A locked account (`unlock-account`): one recovery authenticator, then the account is unlocked.
    case unlockAccount
}

/// Why the Identity Engine asks for a new password, which names the form (idx.md §12.3, §12.4).
enum IDXPasswordChange: Sendable, Equatable {
    /// `reset-authenticator`: a recovery's user proved who they are.
    case reset
    /// `reenroll-authenticator`: the right password, but expired; no way around the change.
    case expired
    /// `reenroll-authenticator-warning`: the right password, expiring in `daysToExpiry` days; `skip` goes on without.
    case expiring(daysToExpiry: Int)
}

/// Who enrolls an authenticator: someone signing up (nothing exists until the end), or a user signing in who lacks
/// a required authenticator.
enum IDXEnrollee: Sendable {
    case signUp(IDXSignUp)
    case signIn(IDXSignIn)

    var signIn: IDXSignIn? {
        if case .signIn(let signIn) = self { return signIn }
        return nil
    }
}

/// The one valid code of a challenge or enrollment sent to an address or phone; a resend replaces it. It lives as
/// long as the transaction (10 minutes of sandbox clock from `/interact`).
struct IDXCode: Sendable {
    let value: String
    let sentAt: Date
    /// Where it went: `email`, `sms` or `voice`.
    let channel: IDXCodeChannel
}

/// How a one-time code travels (the outbox entry's `channel`, and the IDX `methodType`).
enum IDXCodeChannel: String, Sendable {
    case email, sms, voice
    /// A custom OTP token's code, which the sandbox puts in the outbox at the user's address.
    case customOTP = "custom_otp"

    var authenticator: IDXPolicy.Authenticator {
        switch self {
        case .email: return .email
        case .sms, .voice: return .phone
        case .customOTP: return .customOTP
        }
    }
}

/// How a push sent from the Identity Engine ended without an approval.
enum IDXPushOutcome: Sendable {
    case rejected
    case expired
}

/// A sign-up in progress. Nothing is created until the enrollment is done, so an abandoned sign-up leaves no user
/// behind (and no ACTIVE user that could not sign in under the policy).
struct IDXSignUp: Sendable {
    /// The accepted profile (`login` = `email`).
    var profile: [String: String]
    /// The enrolled password, kept hashed like a user's.
    var password: StoredPassword?
    /// Whether the e-mail address was proven with its code.
    var emailVerified = false
    /// The id the user will be created with, chosen when a passkey is enrolled at sign-up: the passkey's user handle
    /// (`activationData.user.id`) must be the user's id, as at Okta, where the user exists by then.
    var userId: String?
    /// The phone, security question and Google Authenticator enrolled so far.
    var enrollments = IDXUserEnrollments()

    var email: String { profile["email"] ?? "" }

    /// Whether `authenticator` is enrolled already.
    func has(_ authenticator: IDXPolicy.Authenticator) -> Bool {
        switch authenticator {
        case .password: return password != nil
        case .email: return emailVerified
        case .oktaVerify: return false
        default: return enrollments.has(authenticator)
        }
    }

    /// Authenticators already enrolled, for `authenticatorEnrollments`.
    var enrolled: [IDXPolicy.Authenticator] {
        IDXPolicy.Authenticator.allCases.filter(has)
    }
}

/// What asking for a code (`challenge/resend`, or choosing the authenticator again) led to.
enum IDXCodeRequest: Sendable {
    /// Sent (or, for a push, the new challenge): the transaction's next step.
    case sent(IDXTransaction)
    /// The last code went out less than `SandboxState.codeResendInterval` ago: nothing was sent, and the
    /// step stays as it was with Okta's "wait" message.
    case tooSoon(IDXTransaction)
}

/// What a form submission led to: the next step, the step to show again (possibly another one) with messages on
/// its fields, or with a top-level message.
enum IDXOutcome: Sendable {
    case next(IDXTransaction)
    case invalid(IDXTransaction, IDXFieldErrors)
    case refused(IDXTransaction, message: IDXMessage)
}

/// A message as IDX documents carry it (idx.md §5.4); a nil key is sent without `i18n` (as Okta sends some).
struct IDXMessage: Sendable {
    let text: String
    let key: String?
    var params: [OrderedJSON]? = nil
    var severity = Severity.error

    /// The message's `class`.
    enum Severity: String, Sendable {
        case error = "ERROR"
        case info = "INFO"
    }
}

/// Validation messages for the fields of a form, by field path (`userProfile.email`, `credentials.passcode`), to send
/// back in the fields' own `messages` (idx.md §5.4).
struct IDXFieldErrors: Error, Sendable {
    var messages: [String: [IDXMessage]]

    init(messages: [String: [IDXMessage]]) {
        self.messages = messages
    }

    init(_ field: String, _ message: IDXMessage) {
        self.messages = [field: [message]]
    }
}

/// One interaction started at `/v1/interact`: the authorization request it is bound to (client, redirect
/// URI, PKCE challenge, scopes, nonce) and the step it has reached.
struct IDXTransaction: Sendable {
    let request: AuthorizeRequest
    let stateHandle: String
    var step: IDXStep
    var expiresAt: Date
    /// `LOGIN`, or `ENROLL_NEW_USER` once a sign-up's profile was accepted (the `enroll-profile` form itself
    /// is recorded with `LOGIN`).
    var intent = "LOGIN"
    /// Wrong codes and answers given in this transaction (`SandboxState+CodeAttempts.swift`).
    var codeFailures = 0
    /// The challenge of `webauthnAutofillUIChallenge` at `identify` (a usernameless passkey sign-in), when the policy
    /// names passkeys; a new one after every attempt.
    var autofillChallenge: String?
    /// A passkey sign-in (autofill) whose passkey was not enough for the policy: its progress, which the password
    /// that is asked next adds to.
    var passkeyFirst: IDXSignIn?
}

/// What a document needs beyond the transaction: the policy, the user once known, and the user's enrollments.
struct IDXView: Sendable {
    let transaction: IDXTransaction
    let policy: IDXPolicy
    var user: User?
    /// The user's enrollments of the authenticators the step lists.
    var enrollments = IDXUserEnrollments()
    /// The app-authenticator enrollment a push goes (or would go) to.
    var oktaVerify: OktaVerifyEnrollment?
    /// What the step offers: `select-authenticator-authenticate`'s authenticators, or those left to enroll.
    var offered: [IDXPolicy.Authenticator] = []
    /// Whether `skip` is offered (only optional authenticators are left to enroll).
    var skippable = false
    /// The authenticators enrolled so far (sign-up) or the user's (sign-in), for `authenticatorEnrollments`.
    var enrolled: [IDXPolicy.Authenticator] = []
    /// The grace period of each authenticator that has one (`SandboxState+IDXScreens.swift`).
    var gracePeriods: [IDXPolicy.Authenticator: OrderedJSON] = [:]
    /// The number of a number challenge, for `contextualData.correctAnswer`.
    var correctAnswer: String?
    /// The password policy: its complexity for a new password's `settings`, whether `identify` offers
    /// `unlock-account`, and whether the password can be recovered at all.
    var passwordPolicy = PasswordPolicySettings()

    struct User: Sendable {
        let id: String
        let login: String
        let email: String
        let firstName: String?
        let lastName: String?
        let timeZone: String?
        let locale: String?
    }

    struct OktaVerifyEnrollment: Sendable {
        let id: String
        let deviceName: String
    }
}
