import Foundation

/// Where an Identity Engine transaction stands (idx.md §10): which form it waits for.
enum IDXStep: Sendable {
    /// `identify`: who is signing in.
    case identify
    /// `challenge-authenticator` for the password of `login` (the user may not exist: nothing is revealed
    /// before the password is checked).
    case challengePassword(login: String)
    /// The password was right and the policy asks for a second factor: `select-authenticator-authenticate`.
    case selectAuthenticator(userId: String)
    /// `challenge-authenticator` for the code e-mailed to the user (the current code only).
    case challengeEmail(userId: String, code: IDXEmailCode)
    /// `challenge-poll` while the push `transactionId` waits for an answer.
    case challengePush(userId: String, transactionId: String)
    /// The push was denied or expired: an ERROR message and `select-authenticator-authenticate` to retry.
    case pushEnded(userId: String, outcome: IDXPushOutcome)
    /// The policy asks for Okta Verify and the user has no app-authenticator enrollment: an ERROR message,
    /// nothing but `cancel`.
    case oktaVerifyMissing(userId: String)
    /// `enroll-profile` (sign-up, idx.md §9): the new user's profile.
    case enrollProfile
    /// `select-authenticator-enroll`: the authenticators of the policy the user-to-be still has to enroll.
    case selectEnroll(IDXSignUp)
    /// `enroll-authenticator` for the first password.
    case enrollPassword(IDXSignUp)
    /// `enroll-authenticator` for the e-mail address of the profile, with the code sent to it.
    case enrollEmail(IDXSignUp, code: IDXEmailCode)
    /// Signed in (or signed up): the success document with its interaction code.
    case success(interactionCode: String, userId: String)

    /// The user the transaction is about once the sandbox has revealed who it is.
    var userId: String? {
        switch self {
        case .selectAuthenticator(let userId), .challengeEmail(let userId, _), .challengePush(let userId, _),
            .pushEnded(let userId, _), .oktaVerifyMissing(let userId), .success(_, let userId):
            return userId
        case .identify, .challengePassword, .enrollProfile, .selectEnroll, .enrollPassword, .enrollEmail:
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

/// The one valid code of an e-mail challenge or enrollment; a resend replaces it. It lives as long as the
/// transaction (10 minutes of sandbox clock from `/interact`).
struct IDXEmailCode: Sendable {
    let value: String
    let sentAt: Date
}

/// How a push sent from the Identity Engine ended without an approval.
enum IDXPushOutcome: Sendable {
    case rejected
    case expired
}

/// A sign-up in progress. Nothing is created until the last authenticator of the policy is enrolled, so an
/// abandoned sign-up leaves no user behind (and no ACTIVE user that could not sign in under the policy).
struct IDXSignUp: Sendable {
    /// The accepted profile (`login` = `email`).
    var profile: [String: String]
    /// The enrolled password, kept hashed like a user's.
    var password: StoredPassword?
    /// Whether the e-mail address was proven with its code.
    var emailVerified = false

    var email: String { profile["email"] ?? "" }

    /// The authenticators of `policy` still to enroll, in the policy's order (Okta Verify is never enrolled at
    /// sign-up: a new user has no app-authenticator enrollment yet, and `idflow enroll` needs a signed-in user).
    func remaining(_ policy: IDXPolicy) -> [IDXPolicy.Authenticator] {
        policy.authenticators.filter { authenticator in
            switch authenticator {
            case .password: return password == nil
            case .email: return !emailVerified
            case .oktaVerify: return false
            }
        }
    }

    /// Authenticators already enrolled, for `authenticatorEnrollments`.
    var enrolled: [IDXPolicy.Authenticator] {
        (password == nil ? [] : [.password]) + (emailVerified ? [.email] : [])
    }
}

/// What asking for a code (`challenge/resend`, or choosing the e-mail authenticator again) led to.
enum IDXCodeRequest: Sendable {
    /// Sent (or, for a push, the new challenge): the transaction's next step.
    case sent(IDXTransaction)
    /// The last code went out less than `SandboxState.codeResendInterval` ago: nothing was sent, and the
    /// step stays as it was with Okta's "wait" message.
    case tooSoon(IDXTransaction)
}

/// What a form submission led to: the next step, or the step to show again (possibly another one) with
/// messages on its fields.
enum IDXOutcome: Sendable {
    case next(IDXTransaction)
    case invalid(IDXTransaction, IDXFieldErrors)
}

/// Validation messages for the fields of a form, by field path (`userProfile.email`), to send back in
/// the fields' own `messages` (idx.md §5.4).
struct IDXFieldErrors: Error, Sendable {
    var messages: [String: [(text: String, key: String)]]
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
}

/// What a document needs beyond the transaction: the policy, the user once known, the app-authenticator
/// enrollment a push goes to.
struct IDXView: Sendable {
    let transaction: IDXTransaction
    let policy: IDXPolicy
    var user: User?
    var oktaVerify: OktaVerifyEnrollment?

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
