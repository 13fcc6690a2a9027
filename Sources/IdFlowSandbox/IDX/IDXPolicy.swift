import Foundation

/// What the Identity Engine (`/idp/idx`) asks of users (`--config` key `idx`): the authenticators a sign-up must
/// enroll (required, in order) or may enroll (optional, each offered with `skip`), how many factors a sign-in needs
/// from those the user has enrolled, whether sign-up is offered, and whether an Okta Verify push carries a number
/// challenge.
///
/// `{"enroll": {"required": ["password","email"], "optional": ["phone","security_question","google_otp","okta_verify"]},
/// "signIn": {"factors": 2}, "signUp": true, "numberChallenge": false}`. The older shape
/// `{"authenticators": ["password"] | ["password","email"] | ["password","okta_verify"]}` means those authenticators
/// required and as many factors as it names. The default is the password alone, with sign-up.
public struct IDXPolicy: Codable, Sendable, Equatable {
    /// An authenticator the policy can name (`key` in IDX documents in parentheses).
    public enum Authenticator: String, Codable, Sendable, CaseIterable {
        /// The password (`okta_password`); always required.
        case password
        /// A 6-digit code "e-mailed" to the user's primary address (the outbox); every user with an address has it.
        case email
        /// A 6-digit code sent by SMS or voice call to a phone number (`phone_number`), also to the outbox.
        case phone
        /// An answer to a question chosen or written at enrollment (`security_question`).
        case securityQuestion = "security_question"
        /// RFC 6238 codes from an authenticator app that scanned the enrollment's QR code (`google_otp`).
        case googleOTP = "google_otp"
        /// The app-authenticator enrollment of `idflow enroll`: its push, and its TOTP codes.
        case oktaVerify = "okta_verify"
        /// Passkeys (`webauthn`, displayed "Passkeys"): WebAuthn credentials, verified for real; settings in
        /// `IDXPolicy.webAuthn`.
        case webAuthn = "webauthn"
        /// A custom OTP authenticator (`custom_otp`): codes from a token an admin provisioned; in the sandbox every
        /// user with an address has one, whose codes go to the outbox (`SandboxState+IDXCustomOTP.swift`).
        case customOTP = "custom_otp"
        /// A Temporary Access Code (`tac`), created by an admin through the management API for one user; never
        /// named in a policy: offered to a user who has an active one (`SandboxState+IDXTAC.swift`).
        case tac

        /// Whether an Identity Engine transaction can enroll it. Okta Verify is enrolled with `idflow enroll`
        /// (the MyAccount app-authenticator API, which needs a signed-in user), never inside a transaction; a
        /// custom OTP token and a TAC are an admin's to provision.
        var enrollsInTransaction: Bool { ![.oktaVerify, .customOTP, .tac].contains(self) }
    }

    /// Enrolled at sign-up in this order; a user who lacks one is asked to enroll it at sign-in.
    public var required: [Authenticator] = [.password]
    /// Offered after the required ones, with `skip`.
    public var optional: [Authenticator] = []
    /// How many factors a sign-in needs, the password included, from the authenticators the user has enrolled.
    public var factors = 1
    /// Whether `identify` offers `select-enroll-profile` (self-service registration).
    public var signUp = true
    /// Whether an Identity Engine push shows a number (`contextualData.correctAnswer`) that the answer must carry.
    public var numberChallenge = false
    /// Whether Okta Verify offers its code (`totp`) beside the push, so a sign-in chooses the method. The older
    /// shape `["password","okta_verify"]` keeps its documents as they were: Okta Verify is the push alone, sent as
    /// soon as it is chosen, so scripts written for it keep working.
    public var oktaVerifyTOTP = true
    /// How passkeys are asked for, once `webauthn` is named among the authenticators (`idx.webauthn`).
    public var webAuthn = WebAuthnPolicy()
    /// Required authenticators a user may put off enrolling (`idx.gracePeriods`, `IDXScreensPolicy.swift`).
    public var gracePeriods: [Authenticator: IDXGracePeriod] = [:]
    /// The apps (client ids) whose sign-in asks the user's consent, with the scopes consented to (`idx.consent`).
    public var consent: [String: [String]] = [:]

    /// The older shape's lists, as the configuration file may still write them.
    public static let allowed: [[Authenticator]] = [[.password], [.password, .email], [.password, .oktaVerify]]

    /// The older shape: `authenticators` required, each of them a factor.
    public init(authenticators: [Authenticator] = [.password], signUp: Bool = true) {
        self.required = authenticators
        self.factors = max(1, authenticators.count)
        self.signUp = signUp
        self.oktaVerifyTOTP = !authenticators.contains(.oktaVerify)
    }

    public init(
        required: [Authenticator], optional: [Authenticator] = [], factors: Int = 1, signUp: Bool = true, numberChallenge: Bool = false
    ) {
        self.required = required
        self.optional = optional
        self.factors = factors
        self.signUp = signUp
        self.numberChallenge = numberChallenge
    }

    /// Every authenticator the policy names, required ones first.
    public var authenticators: [Authenticator] { required + optional }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case authenticators, enroll, signIn, signUp, numberChallenge
        case webAuthn = "webauthn"
        case gracePeriods, consent
    }

    private enum EnrollKeys: String, CodingKey, CaseIterable {
        case required, optional
    }

    private enum SignInKeys: String, CodingKey, CaseIterable {
        case factors
    }

    /// Missing keys keep their defaults; unknown keys and authenticator names, and the older shape mixed with the
    /// newer, are refused with a message that says what is allowed.
    public init(from decoder: any Decoder) throws {
        try ConfigurationKeys.refuseUnknown(decoder, known: CodingKeys.allCases.map(\.rawValue), key: "idx")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signUp = try container.decodeIfPresent(Bool.self, forKey: .signUp) ?? true
        numberChallenge = try container.decodeIfPresent(Bool.self, forKey: .numberChallenge) ?? false
        webAuthn = try container.decodeIfPresent(WebAuthnPolicy.self, forKey: .webAuthn) ?? WebAuthnPolicy()
        gracePeriods = try Self.decodeGracePeriods(container.decodeIfPresent([String: IDXGracePeriod].self, forKey: .gracePeriods))
        consent = try container.decodeIfPresent([String: [String]].self, forKey: .consent) ?? [:]
        if let names = try container.decodeIfPresent([String].self, forKey: .authenticators) {
            guard !container.contains(.enroll), !container.contains(.signIn) else {
                throw SandboxConfigurationError.invalidValue(
                    key: "idx", reason: "use either authenticators (the older shape) or enroll and signIn, not both")
            }
            let authenticators = try Self.authenticators(names, key: "idx.authenticators")
            guard Self.allowed.contains(authenticators) else {
                let reason =
                    authenticators.first == .password
                    ? "must be \(Self.allowedDescription)"
                    : "password must come first: \(Self.allowedDescription)"
                throw SandboxConfigurationError.invalidValue(key: "idx.authenticators", reason: reason)
            }
            required = authenticators
            factors = authenticators.count
            oktaVerifyTOTP = !authenticators.contains(.oktaVerify)
            return
        }
        if container.contains(.enroll) {
            try ConfigurationKeys.refuseUnknown(
                try container.superDecoder(forKey: .enroll), known: EnrollKeys.allCases.map(\.rawValue), key: "idx.enroll")
            let enroll = try container.nestedContainer(keyedBy: EnrollKeys.self, forKey: .enroll)
            required = try Self.authenticators(
                try enroll.decodeIfPresent([String].self, forKey: .required) ?? ["password"], key: "idx.enroll.required")
            optional = try Self.authenticators(
                try enroll.decodeIfPresent([String].self, forKey: .optional) ?? [], key: "idx.enroll.optional")
        }
        if container.contains(.signIn) {
            try ConfigurationKeys.refuseUnknown(
                try container.superDecoder(forKey: .signIn), known: SignInKeys.allCases.map(\.rawValue), key: "idx.signIn")
            let signIn = try container.nestedContainer(keyedBy: SignInKeys.self, forKey: .signIn)
            factors = try signIn.decodeIfPresent(Int.self, forKey: .factors) ?? 1
        }
    }

    /// `{"enroll": {"required", "optional"}, "signIn": {"factors"}, "signUp", "numberChallenge", "webauthn"}`: the newer shape
    /// always (the older one reads back as the same policy).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var enroll = container.nestedContainer(keyedBy: EnrollKeys.self, forKey: .enroll)
        try enroll.encode(required.map(\.rawValue), forKey: .required)
        try enroll.encode(optional.map(\.rawValue), forKey: .optional)
        var signIn = container.nestedContainer(keyedBy: SignInKeys.self, forKey: .signIn)
        try signIn.encode(factors, forKey: .factors)
        try container.encode(signUp, forKey: .signUp)
        try container.encode(numberChallenge, forKey: .numberChallenge)
        // Only when set, so a policy without passkeys encodes as it did before passkeys existed.
        if webAuthn != WebAuthnPolicy() { try container.encode(webAuthn, forKey: .webAuthn) }
        if !gracePeriods.isEmpty {
            try container.encode(
                Dictionary(uniqueKeysWithValues: gracePeriods.map { ($0.key.rawValue, $0.value) }), forKey: .gracePeriods)
        }
        if !consent.isEmpty { try container.encode(consent, forKey: .consent) }
    }

    private static func authenticators(_ names: [String], key: String) throws -> [Authenticator] {
        try names.map { name in
            guard let authenticator = Authenticator(rawValue: name) else {
                let known = Authenticator.allCases.map(\.rawValue).joined(separator: ", ")
                throw SandboxConfigurationError.invalidValue(
                    key: key,
                    reason: key == "idx.authenticators"
                        ? "unknown authenticator \"\(name)\"; use \(allowedDescription), or enroll.required/optional with \(known)"
                        : "unknown authenticator \"\(name)\"; known: \(known)")
            }
            return authenticator
        }
    }

    /// `["password"], ["password","email"] or ["password","okta_verify"]`.
    static var allowedDescription: String {
        let lists = allowed.map { "[" + $0.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]" }
        return lists.dropLast().joined(separator: ", ") + " or " + lists.last!
    }

    /// The rules between the keys: the password required, each authenticator named once, and no more factors than
    /// the policy has authenticators.
    func validate() throws {
        guard required.contains(.password) else {
            throw SandboxConfigurationError.invalidValue(
                key: "idx.enroll.required", reason: "must contain \"password\" (the sandbox has no passwordless sign-in)")
        }
        let all = authenticators
        if all.contains(.tac) {
            throw SandboxConfigurationError.invalidValue(
                key: "idx.enroll",
                reason: "\"tac\" is not named in a policy: a sign-in offers it to a user with a code an admin created "
                    + "(POST /api/v1/users/{id}/authenticator-enrollments/tac)")
        }
        if let twice = all.first(where: { name in all.filter { $0 == name }.count > 1 }) {
            throw SandboxConfigurationError.invalidValue(
                key: "idx.enroll", reason: "\"\(twice.rawValue)\" is named twice; an authenticator is either required or optional")
        }
        guard (1...all.count).contains(factors) else {
            throw SandboxConfigurationError.invalidValue(
                key: "idx.signIn.factors", reason: "must be from 1 to \(all.count), the number of authenticators the policy names")
        }
        try webAuthn.validate()
        try validateScreens()
        guard !webAuthn.promotion || all.contains(.webAuthn) else {
            throw SandboxConfigurationError.invalidValue(
                key: "idx.webauthn.promotion",
                reason: "needs \"webauthn\" in idx.enroll.required or optional, so a promoted passkey can sign in")
        }
    }
}
