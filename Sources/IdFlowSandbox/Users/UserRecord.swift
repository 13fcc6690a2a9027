import Crypto
import Foundation

/// Okta's user statuses (okta-core.md §B, status machine).
enum UserStatus: String, Sendable, CaseIterable {
    case staged = "STAGED"
    case provisioned = "PROVISIONED"
    case active = "ACTIVE"
    case recovery = "RECOVERY"
    case passwordExpired = "PASSWORD_EXPIRED"
    case lockedOut = "LOCKED_OUT"
    case suspended = "SUSPENDED"
    case deprovisioned = "DEPROVISIONED"
}

/// A password as the sandbox keeps it: salted SHA-256, so not even a state dump shows it.
struct StoredPassword: Sendable {
    private let salt: [UInt8]
    private let digest: [UInt8]

    init(_ password: String) {
        var generator = SystemRandomNumberGenerator()
        salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        digest = Self.hash(password, salt: salt)
    }

    func matches(_ candidate: String) -> Bool {
        Self.hash(candidate, salt: salt) == digest
    }

    private static func hash(_ password: String, salt: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: salt + Array(password.utf8)))
    }
}

/// One user in the sandbox directory.
struct UserRecord: Sendable {
    let id: String
    var status: UserStatus
    let created: Date
    var activated: Date?
    var statusChanged: Date?
    var lastLogin: Date?
    var lastUpdated: Date
    var passwordChanged: Date?
    var password: StoredPassword?
    /// Profile attributes as sent (plus `login` defaulted from `email`); rendered in Okta's order.
    var profile: [String: OrderedJSON]
    /// The one activation token that is currently valid for this user, if any.
    var activationToken: String?
    /// Wrong passwords since the last right one (`PasswordPolicySettings.lockout`).
    var failedPasswordAttempts = 0
    /// Wrong one-time codes and security answers since the last right one, across transactions
    /// (`SandboxState+CodeAttempts.swift`).
    var failedCodeAttempts = 0

    var login: String { profile["login"]?.stringValue ?? "" }
    var email: String { profile["email"]?.stringValue ?? "" }

    /// Moves to `status`, stamping `statusChanged` and `lastUpdated` as real orgs do.
    mutating func transition(to status: UserStatus, at now: Date) {
        self.status = status
        statusChanged = now
        lastUpdated = now
        if status == .active, activated == nil { activated = now }
    }

    /// Sets a new password (already checked against the policy).
    mutating func setPassword(_ password: String, at now: Date) {
        self.password = StoredPassword(password)
        passwordChanged = now
        lastUpdated = now
    }
}

/// The pending activation token of a user (single-use, 7 days).
struct ActivationGrant: Sendable {
    let userId: String
    let expiresAt: Date
}

/// What the sandbox answers to a lifecycle `activate`/`reactivate`.
enum ActivationOutcome: Sendable {
    /// `sendEmail=false`: the token and URL are returned to the caller.
    case token(token: String, url: String)
    /// `sendEmail=true`: the URL went to the outbox and the body is `{}`.
    case emailed
}

/// An e-mail (or text message) the sandbox "sent", kept for `GET /sandbox/outbox`.
public struct OutboxMessage: Sendable, Equatable {
    /// The user's primary e-mail, or the phone number of a text.
    public let to: String
    public let subject: String
    /// The link a user would click; it carries the activation token (activation mails).
    public let activationUrl: String?
    /// The one-time code of a custom registration's text message.
    public let code: String?
    /// How an Identity Engine code travelled: `email`, `sms` or `voice` (nil for other messages).
    public let channel: String?
    /// The link of a password-reset or unlock mail (`{org}/reset_password/drp…`, `{org}/signin/reset-password/dfp…`,
    /// `{org}/signin/unlock/…`): what a user would click.
    public let link: String?
    /// The recovery token inside `link`, redeemable with `POST /api/v1/authn/recovery/token {"recoveryToken"}` (and,
    /// for a password reset, `POST /api/v1/authn {"token"}`), so a test need not cut it out of the URL.
    public let recoveryToken: String?
    /// The sandbox-clock time of sending.
    public let sentAt: Date

    public init(
        to: String, subject: String, activationUrl: String? = nil, code: String? = nil, channel: String? = nil,
        link: String? = nil, recoveryToken: String? = nil, sentAt: Date
    ) {
        self.to = to
        self.subject = subject
        self.activationUrl = activationUrl
        self.code = code
        self.channel = channel
        self.link = link
        self.recoveryToken = recoveryToken
        self.sentAt = sentAt
    }
}
