import Foundation

/// The password policy's rules beyond complexity (`--config` key `passwordPolicy`, named as in Okta's password
/// policy `settings`): when failed sign-ins lock the account, when a password expires, and how a user gets back in.
///
/// `{"lockout": {"maxAttempts": 10, "showLockoutFailures": false, "selfServiceUnlock": true, "maxCodeAttempts": 5},
/// "age": {"maxAgeDays": 0, "expireWarnDays": 0}, "recovery": {"authenticators": ["email", "phone"]}}`; every key
/// is optional and defaults to Okta's default policy.
public struct PasswordPolicySettings: Codable, Sendable, Equatable {
    public var lockout = LockoutPolicy()
    public var age = PasswordAgePolicy()
    public var recovery = RecoveryPolicy()

    public init(
        lockout: LockoutPolicy = LockoutPolicy(), age: PasswordAgePolicy = PasswordAgePolicy(), recovery: RecoveryPolicy = RecoveryPolicy()
    ) {
        self.lockout = lockout
        self.age = age
        self.recovery = recovery
    }

    enum CodingKeys: String, CodingKey { case lockout, age, recovery }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lockout = try container.decodeIfPresent(LockoutPolicy.self, forKey: .lockout) ?? LockoutPolicy()
        age = try container.decodeIfPresent(PasswordAgePolicy.self, forKey: .age) ?? PasswordAgePolicy()
        recovery = try container.decodeIfPresent(RecoveryPolicy.self, forKey: .recovery) ?? RecoveryPolicy()
    }

    func validate() throws {
        if lockout.maxAttempts < 0 {
            throw SandboxConfigurationError.invalidValue(
                key: "passwordPolicy.lockout.maxAttempts", reason: "must be 0 (never lock) or more")
        }
        if lockout.maxCodeAttempts < 0 {
            throw SandboxConfigurationError.invalidValue(
                key: "passwordPolicy.lockout.maxCodeAttempts", reason: "must be 0 (no limit) or more")
        }
        if age.maxAgeDays < 0 || age.expireWarnDays < 0 {
            throw SandboxConfigurationError.invalidValue(
                key: "passwordPolicy.age", reason: "maxAgeDays and expireWarnDays must not be negative")
        }
        let unusable = recovery.authenticators.filter { !RecoveryPolicy.recoverable.contains($0) }
        if !unusable.isEmpty {
            throw SandboxConfigurationError.invalidValue(
                key: "passwordPolicy.recovery.authenticators",
                reason: "\(unusable.map(\.rawValue).joined(separator: ", ")) cannot recover a password; use email, phone or okta_verify")
        }
    }

    /// The document `GET /sandbox/info` and the start-up JSON show, in the configuration's own shape.
    var json: OrderedJSON {
        [
            "lockout": [
                "maxAttempts": .int(lockout.maxAttempts), "showLockoutFailures": .bool(lockout.showLockoutFailures),
                "selfServiceUnlock": .bool(lockout.selfServiceUnlock), "maxCodeAttempts": .int(lockout.maxCodeAttempts),
            ],
            "age": ["maxAgeDays": .int(age.maxAgeDays), "expireWarnDays": .int(age.expireWarnDays)],
            "recovery": ["authenticators": .array(recovery.authenticators.map { .string($0.rawValue) })],
        ]
    }
}

/// Failed sign-ins before LOCKED_OUT (Okta's default policy: 10), whether Authn says so, and self-service unlock.
public struct LockoutPolicy: Codable, Sendable, Equatable {
    /// Wrong passwords in a row that lock the account; 0 never locks.
    public var maxAttempts = 10
    /// Authn answers a locked user's sign-in with the LOCKED_OUT state instead of the E0000004 every failure gets
    /// (Okta's "show lock out failures", off by default so that the API does not tell who is locked).
    public var showLockoutFailures = false
    /// Whether a locked user may unlock the account by verifying with a recovery authenticator.
    public var selfServiceUnlock = true
    /// Wrong one-time codes (e-mail, phone, TOTP), security answers and Authn recovery codes a transaction, and a
    /// user across transactions, may give before the transaction is ended; 0 never ends it. The default, 5, is
    /// within the 3–10 failures Okta's lockouts allow and below the password's 10 because a code is only six
    /// digits: five tries guess one in 200,000 times. Okta's recorded answer to the limit is the IDX message
    /// `authfactor.challenge.suspended_factor` (`error-factor-suspended-too-many-attempts.json`).
    public var maxCodeAttempts = 5

    public init(maxAttempts: Int = 10, showLockoutFailures: Bool = false, selfServiceUnlock: Bool = true, maxCodeAttempts: Int = 5) {
        self.maxAttempts = maxAttempts
        self.showLockoutFailures = showLockoutFailures
        self.selfServiceUnlock = selfServiceUnlock
        self.maxCodeAttempts = maxCodeAttempts
    }

    enum CodingKeys: String, CodingKey { case maxAttempts, showLockoutFailures, selfServiceUnlock, maxCodeAttempts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? 10
        showLockoutFailures = try container.decodeIfPresent(Bool.self, forKey: .showLockoutFailures) ?? false
        selfServiceUnlock = try container.decodeIfPresent(Bool.self, forKey: .selfServiceUnlock) ?? true
        maxCodeAttempts = try container.decodeIfPresent(Int.self, forKey: .maxCodeAttempts) ?? 5
    }
}

/// How long a password lives (`maxAgeDays`, 0 = forever) and how many days before its end sign-ins warn.
public struct PasswordAgePolicy: Codable, Sendable, Equatable {
    public var maxAgeDays = 0
    public var expireWarnDays = 0

    public init(maxAgeDays: Int = 0, expireWarnDays: Int = 0) {
        self.maxAgeDays = maxAgeDays
        self.expireWarnDays = expireWarnDays
    }

    enum CodingKeys: String, CodingKey { case maxAgeDays, expireWarnDays }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxAgeDays = try container.decodeIfPresent(Int.self, forKey: .maxAgeDays) ?? 0
        expireWarnDays = try container.decodeIfPresent(Int.self, forKey: .expireWarnDays) ?? 0
    }
}

/// The authenticators that may prove who a user is when the password is forgotten or the account locked.
public struct RecoveryPolicy: Codable, Sendable, Equatable {
    public var authenticators: [IDXPolicy.Authenticator] = [.email, .phone]

    /// What Okta lets recover a password: something sent to the user, not something the user knows.
    static let recoverable: Set<IDXPolicy.Authenticator> = [.email, .phone, .oktaVerify]

    public init(authenticators: [IDXPolicy.Authenticator] = [.email, .phone]) {
        self.authenticators = authenticators
    }

    enum CodingKeys: String, CodingKey { case authenticators }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        authenticators = try container.decodeIfPresent([IDXPolicy.Authenticator].self, forKey: .authenticators) ?? [.email, .phone]
    }
}
