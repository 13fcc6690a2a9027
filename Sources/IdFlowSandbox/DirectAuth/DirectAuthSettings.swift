import Foundation

/// `directAuth` in `--config`: Okta Direct Authentication (direct-auth.md) as the sandbox serves it.
/// `{"intervalSeconds": 5, "expiresInSeconds": 300, "numberChallenge": false, "grants": {"CLIENT_ID": ["password", "otp",
/// "oob", "mfa-otp", "mfa-oob", "webauthn", "mfa-webauthn"]}}`. A client not named in `grants` has the default: the public native app (`clientId`)
/// every direct-auth grant, every other client none.
public struct DirectAuthSettings: Codable, Sendable, Equatable {
    /// The `interval` of a push (seconds between polls); a poll sooner is `slow_down`.
    public var intervalSeconds = 5
    /// The `expires_in` of an `oob_code` (and the life of an `mfa_token` and of a passkey challenge).
    public var expiresInSeconds = 300
    /// Whether pushes carry a number challenge (`binding_method: transfer`).
    public var numberChallenge = false
    /// The direct-auth grants of each client, by client id (short names or grant URNs).
    public var grants: [String: [String]] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case intervalSeconds, expiresInSeconds, numberChallenge, grants }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DirectAuthSettings()
        intervalSeconds = try container.decodeIfPresent(Int.self, forKey: .intervalSeconds) ?? defaults.intervalSeconds
        expiresInSeconds = try container.decodeIfPresent(Int.self, forKey: .expiresInSeconds) ?? defaults.expiresInSeconds
        numberChallenge = try container.decodeIfPresent(Bool.self, forKey: .numberChallenge) ?? defaults.numberChallenge
        grants = try container.decodeIfPresent([String: [String]].self, forKey: .grants) ?? defaults.grants
    }

    /// Refuses intervals and lifetimes below a second, unknown grant names, and clients the configuration lacks.
    func validate(clientIds: [String]) throws {
        if intervalSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "directAuth.intervalSeconds", reason: "must be at least 1")
        }
        if expiresInSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "directAuth.expiresInSeconds", reason: "must be at least 1")
        }
        for (clientId, names) in grants.sorted(by: { $0.key < $1.key }) {
            guard clientIds.contains(clientId) else {
                throw SandboxConfigurationError.invalidValue(
                    key: "directAuth.grants", reason: "\(clientId) is not an OAuth client (known: \(clientIds.joined(separator: ", ")))")
            }
            for name in names where DirectAuthGrant(name: name) == nil {
                throw SandboxConfigurationError.invalidValue(
                    key: "directAuth.grants.\(clientId)",
                    reason: "\(name) is not a direct-auth grant (\(DirectAuthGrant.allCases.map(\.shortName).joined(separator: ", ")))")
            }
        }
    }

    /// The grants `clientId` has, in `DirectAuthGrant` order.
    func grants(of clientId: String, defaultClientId: String) -> [DirectAuthGrant] {
        guard let names = grants[clientId] else { return clientId == defaultClientId ? DirectAuthGrant.allCases : [] }
        let granted = Set(names.compactMap(DirectAuthGrant.init(name:)))
        return DirectAuthGrant.allCases.filter(granted.contains)
    }
}

/// The direct-auth grant types (direct-auth.md §2), by their `grant_type` value.
enum DirectAuthGrant: String, CaseIterable, Sendable {
    case password
    case otp = "urn:okta:params:oauth:grant-type:otp"
    case oob = "urn:okta:params:oauth:grant-type:oob"
    case mfaOTP = "http://auth0.com/oauth/grant-type/mfa-otp"
    case mfaOOB = "http://auth0.com/oauth/grant-type/mfa-oob"
    /// A passkey as the first factor (direct-auth.md §6.1).
    case webAuthn = "urn:okta:params:oauth:grant-type:webauthn"
    /// A passkey after a password (direct-auth.md §6.2).
    case mfaWebAuthn = "urn:okta:params:oauth:grant-type:mfa-webauthn"

    /// The name `directAuth.grants` may use instead of the URN.
    var shortName: String {
        switch self {
        case .password: return "password"
        case .otp: return "otp"
        case .oob: return "oob"
        case .mfaOTP: return "mfa-otp"
        case .mfaOOB: return "mfa-oob"
        case .webAuthn: return "webauthn"
        case .mfaWebAuthn: return "mfa-webauthn"
        }
    }

    /// A grant from its short name or its `grant_type` value.
    init?(name: String) {
        guard let grant = Self.allCases.first(where: { $0.shortName == name || $0.rawValue == name }) else { return nil }
        self = grant
    }
}

extension SandboxConfiguration {
    /// The direct-auth grants a client has (`directAuth.grants`, else the default).
    func directAuthGrants(of clientId: String) -> [DirectAuthGrant] {
        directAuth.grants(of: clientId, defaultClientId: self.clientId)
    }

    /// Every OAuth client's direct-auth grants (`grant_type` values), for `/sandbox/info`'s `directAuthGrants`.
    var directAuthGrantsByClient: [String: [String]] {
        Dictionary(oauthClients.map { ($0.id, directAuthGrants(of: $0.id).map(\.rawValue)) }) { first, _ in first }
    }
}
