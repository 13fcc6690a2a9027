import Foundation

/// The Token Server side of custom registration (custom-registration.md §6): the client allowed to register
/// users, and the custom identity providers with their scripted behaviour. `--config FILE` may replace any
/// part under the key `customRegistration`; missing keys keep these defaults.
public struct CustomRegistrationConfiguration: Codable, Sendable, Equatable {
    /// The client that authenticates with HTTP Basic at the custom-registration endpoints, and that the issued
    /// tokens belong to (it refreshes and introspects them at the default authorization server).
    public var clientId: String = "0oaidflowcustomreg00"
    /// Its secret; nil makes a fresh random one per run (printed in the start-up line, like the API token).
    public var clientSecret: String?
    /// How long an open transaction lives on the sandbox clock.
    public var transactionLifetimeSeconds: Int = 300
    /// The scopes granted when a complete call sends none.
    public var defaultScopes: [String] = ["openid", "profile", "email", "offline_access"]
    public var identityProviders: [CustomIdentityProvider] = CustomIdentityProvider.builtIn

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case clientId, clientSecret, transactionLifetimeSeconds, defaultScopes, identityProviders
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = CustomRegistrationConfiguration()
        clientId = try container.decodeIfPresent(String.self, forKey: .clientId) ?? defaults.clientId
        clientSecret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
        transactionLifetimeSeconds =
            try container.decodeIfPresent(Int.self, forKey: .transactionLifetimeSeconds) ?? defaults.transactionLifetimeSeconds
        defaultScopes = try container.decodeIfPresent([String].self, forKey: .defaultScopes) ?? defaults.defaultScopes
        identityProviders =
            try container.decodeIfPresent([CustomIdentityProvider].self, forKey: .identityProviders) ?? defaults.identityProviders
    }

    func validate() throws {
        if transactionLifetimeSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "customRegistration.transactionLifetimeSeconds", reason: "must be at least 1")
        }
        if clientId.isEmpty || clientSecret == "" {
            throw SandboxConfigurationError.invalidValue(
                key: "customRegistration.clientId", reason: "the client id and secret must not be empty")
        }
        let ids = identityProviders.map(\.id)
        if Set(ids).count != ids.count || ids.contains(where: \.isEmpty) {
            throw SandboxConfigurationError.invalidValue(
                key: "customRegistration.identityProviders", reason: "every identity provider needs an id of its own")
        }
    }
}

/// One custom identity provider: its id, whether it has an init step, and what its scripts do.
public struct CustomIdentityProvider: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case oneStep = "ONE_STEP"
        case twoStep = "TWO_STEP"
    }

    /// The built-in scripts; `rules` answers from the `init` and `complete` rule lists.
    public enum Script: String, Codable, Sendable {
        /// One step: the invite code → 2000 and a user; `revokedCode` → 5001; anything else → 4001.
        case inviteCode
        /// Two steps: init `{"phone": …}` texts a 6-digit code (the outbox); complete with it → 2000.
        case smsOTP
        /// The first rule whose `whenData` matches (or that has none) answers.
        case rules
    }

    public var id: String
    public var type: Kind
    public var enabled: Bool = true
    public var script: Script = .rules
    /// `inviteCode`: the code that registers, and the one that is revoked.
    public var inviteCode: String = "K7Q2"
    public var revokedCode: String = "REVOKED"
    /// A complete that would be the `maxAttempts`-th failure of a transaction fails for good instead (5xxx).
    public var maxAttempts: Int?
    /// `rules`: the init and complete scripts.
    public var initRules: [ScriptRule] = []
    public var completeRules: [ScriptRule] = []

    public init(id: String, type: Kind, enabled: Bool = true, script: Script = .rules, maxAttempts: Int? = nil) {
        self.id = id
        self.type = type
        self.enabled = enabled
        self.script = script
        self.maxAttempts = maxAttempts
    }

    /// `invite-code`, `sms-otp` and the disabled `legacy-partner`, as docs/registration.md documents them.
    public static let builtIn = [
        CustomIdentityProvider(id: "invite-code", type: .oneStep, script: .inviteCode),
        CustomIdentityProvider(id: "sms-otp", type: .twoStep, script: .smsOTP, maxAttempts: 3),
        CustomIdentityProvider(id: "legacy-partner", type: .oneStep, enabled: false, script: .inviteCode),
    ]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, type, enabled, script, inviteCode, revokedCode, maxAttempts
        case initRules = "init"
        case completeRules = "complete"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(Kind.self, forKey: .type)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        script = try container.decodeIfPresent(Script.self, forKey: .script) ?? .rules
        inviteCode = try container.decodeIfPresent(String.self, forKey: .inviteCode) ?? "K7Q2"
        revokedCode = try container.decodeIfPresent(String.self, forKey: .revokedCode) ?? "REVOKED"
        maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts)
        initRules = try container.decodeIfPresent([ScriptRule].self, forKey: .initRules) ?? []
        completeRules = try container.decodeIfPresent([ScriptRule].self, forKey: .completeRules) ?? []
    }
}

/// One line of a scripted identity provider: when the data is `whenData` (or always, without it), answer
/// `status` with `data`; a 2xxx complete creates the user `email` (generated when absent).
public struct ScriptRule: Codable, Sendable, Equatable {
    public var whenData: String?
    public var status: Int
    public var data: String?
    public var email: String?

    public init(whenData: String? = nil, status: Int, data: String? = nil, email: String? = nil) {
        self.whenData = whenData
        self.status = status
        self.data = data
        self.email = email
    }
}
