import Foundation

/// `nativeSSO` in `--config`: which apps share a sign-in, and how (native-sso.md §1, §2).
/// `{"apps": [{"clientId": "0oa…", "redirectURIs": […]}], "deviceSSO": ["0oa…"], "tokenExchange": ["0oa…"],
/// "requireMFA": ["0oa…"], "interclientTrust": {"TARGET": ["ORIGIN", …]}}`. Every key may be left out: the defaults
/// let the public native app receive a device secret and every client exchange, and require nothing more.
public struct NativeSSOSettings: Codable, Sendable, Equatable {
    /// More public native apps (Okta's "Native" app type), so that a second app can exchange the first one's
    /// sign-in; without `redirectURIs` they share the top-level ones.
    public var apps: [NativeApp] = []
    /// The clients given a `device_secret` when they ask for `openid device_sso offline_access`; nil means the
    /// public native app (`clientId`) and every app in `apps`.
    public var deviceSSO: [String]?
    /// The clients whose grant types include token exchange; nil means every OAuth client (native-sso.md §1.1).
    public var tokenExchange: [String]?
    /// Apps whose policy wants two factors: a session that had one is refused their exchange (native-sso.md §1.4).
    public var requireMFA: [String] = []
    /// Native-to-Web trust (native-sso.md §2.1): each target client id with the origin client ids it trusts.
    public var interclientTrust: [String: [String]] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case apps, deviceSSO, tokenExchange, requireMFA, interclientTrust }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apps = try container.decodeIfPresent([NativeApp].self, forKey: .apps) ?? []
        deviceSSO = try container.decodeIfPresent([String].self, forKey: .deviceSSO)
        tokenExchange = try container.decodeIfPresent([String].self, forKey: .tokenExchange)
        requireMFA = try container.decodeIfPresent([String].self, forKey: .requireMFA) ?? []
        interclientTrust = try container.decodeIfPresent([String: [String]].self, forKey: .interclientTrust) ?? [:]
    }

    /// Refuses a client id the configuration does not register, so a typo is not a silently inert rule.
    func validate(clientIds: [String]) throws {
        func check(_ ids: [String], key: String) throws {
            for id in ids where !clientIds.contains(id) {
                throw SandboxConfigurationError.invalidValue(
                    key: "nativeSSO.\(key)", reason: "\(id) is not an OAuth client (known: \(clientIds.joined(separator: ", ")))")
            }
        }
        try check(deviceSSO ?? [], key: "deviceSSO")
        try check(tokenExchange ?? [], key: "tokenExchange")
        try check(requireMFA, key: "requireMFA")
        for (target, origins) in interclientTrust.sorted(by: { $0.key < $1.key }) {
            try check([target] + origins, key: "interclientTrust")
        }
    }
}

/// One more public native app (`nativeSSO.apps`).
public struct NativeApp: Codable, Sendable, Equatable {
    public var clientId: String
    public var redirectURIs: [String]?

    public init(clientId: String, redirectURIs: [String]? = nil) {
        self.clientId = clientId
        self.redirectURIs = redirectURIs
    }
}

extension SandboxConfiguration {
    /// Whether `clientId` gets a device secret for `device_sso` (native-sso.md §1.2).
    func allowsDeviceSSO(_ clientId: String) -> Bool {
        nativeSSO.deviceSSO?.contains(clientId) ?? (clientId == self.clientId || nativeSSO.apps.contains { $0.clientId == clientId })
    }

    /// Whether `clientId` may use the token-exchange grant (native-sso.md §1.1).
    func allowsTokenExchange(_ clientId: String) -> Bool {
        nativeSSO.tokenExchange?.contains(clientId) ?? true
    }

    /// Whether `origin` may obtain an interclient token for `target` (native-sso.md §2.1).
    func trustsInterclient(target: String, origin: String) -> Bool {
        nativeSSO.interclientTrust[target]?.contains(origin) ?? false
    }

    /// Whether some target trusts `origin`, the condition for its `interclient_access` scope (native-sso.md §2.1).
    func isInterclientOrigin(_ origin: String) -> Bool {
        nativeSSO.interclientTrust.values.contains { $0.contains(origin) }
    }
}
