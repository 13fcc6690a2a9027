import Foundation
import URINormalization

/// Which kind of org the sandbox imitates, seen mostly in `activationUrl`; both shapes are recorded
/// from real orgs. Classic also leaves `statusChanged` null on new users and offers no
/// `resetFactors` link on STAGED users, as the 2020 Classic recording shows.
public enum ActivationURLStyle: String, Codable, Sendable, CaseIterable {
    /// Identity Engine orgs: `{org}/tokens/{token}/verify`.
    case identityEngine
    /// Classic orgs: `{org}/welcome/{token}`.
    case classic
}

/// Everything `idflow sandbox --config FILE` can set. Every field is optional in the JSON file.
public struct SandboxConfiguration: Codable, Sendable {
    /// The address to bind; default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// The port to bind; 0 (the default) picks a free one.
    public var port: Int = 0
    /// The management API token (`Authorization: SSWS …`); nil makes a fresh random one per run.
    public var apiToken: String?
    /// The public OAuth client (a native app). Fixed so documentation can show it.
    public var clientId: String = SandboxConfiguration.defaultClientId
    /// The redirect URIs registered for that client; the first one is reported in `SandboxInfo`.
    public var redirectURIs: [String] = ["com.example.idflow:/callback", "http://127.0.0.1/callback"]
    /// Requests per window for an endpoint family (`users`, `authn`, `oauth`, `other`); absent = unlimited.
    public var rateLimits: [String: Int] = [:]
    /// The length of a rate-limit window.
    public var rateLimitWindowSeconds: Int = 60
    /// How long a rotated refresh token stays usable after its successor was issued.
    public var refreshTokenGraceSeconds: Int = 30
    /// The lifetime of access tokens (`expires_in`).
    public var accessTokenLifetimeSeconds: Int = 3600
    /// The lifetime of ID tokens (`exp` − `iat`). Okta's is one hour and cannot be changed; a shorter one lets a
    /// test see an ID token expire while its session lives (Native SSO sends it anyway) without moving the sandbox
    /// clock so far that the new tokens look future-dated to a client judging by the real clock.
    public var idTokenLifetimeSeconds: Int = 3600
    /// The shape of activation URLs.
    public var activationURLStyle: ActivationURLStyle = .identityEngine
    /// An optional confidential client (client_secret_basic / client_secret_post) with the same
    /// redirect URIs as the public one; registered only when both id and secret are set.
    public var confidentialClientId: String?
    /// The secret of `confidentialClientId`.
    public var confidentialClientSecret: String?
    /// An optional confidential client that authenticates at the token, introspection and revocation endpoints with
    /// its TLS client certificate (RFC 8705 `tls_client_auth`) and gets certificate-bound access tokens
    /// (`cnf.x5t#S256`); same redirect URIs as the public one. It needs `--tls --tls-client-ca`, which checks the
    /// certificate's issuer in the handshake.
    public var tlsClientAuthClient: TLSClientAuthClient?
    /// When Authn asks for a second factor after the password (devices.md, push sign-in).
    public var mfaPolicy: MFAPolicy = .whenEnrolled
    /// The `userVerification` of sign-in push challenges; `/sandbox/push` can ask for another per challenge.
    public var pushUserVerification: PushUserVerification = .none
    /// How long a push challenge can be answered (its JWT's `exp` − `iat`), on the sandbox clock.
    public var pushChallengeSeconds: Int = 300
    /// The `interval` of device authorizations (RFC 8628): polls sooner than this get `slow_down`.
    public var deviceIntervalSeconds: Int = 5
    /// The sandbox clock stands still at start-up and moves only by `/sandbox/clock`, so timing assertions do not
    /// depend on how fast the machine is (`"freezeClock": true`: an end-to-end test of `slow_down` needs polls that
    /// come "at once" by the sandbox clock however slowly the machine runs them).
    public var freezeClock = false
    /// Serve https only, with a generated or given certificate (`idflow sandbox --tls`); nil (the default) serves
    /// plain http. Not a configuration-file key: the flags set it.
    public var tls: SandboxTLSConfiguration?
    /// The custom-registration client and identity providers (`CustomRegistration/`).
    public var customRegistration = CustomRegistrationConfiguration()
    /// What the Identity Engine asks of sign-in and sign-up (`IDXPolicy`).
    public var idx = IDXPolicy()
    /// Lockout, password age and recovery (`PasswordPolicySettings`).
    public var passwordPolicy = PasswordPolicySettings()
    /// OAuth 2.0 service apps (`OAuthService/`); nil registers one default app with a key generated at start-up
    /// (`ServiceAppConfiguration.defaultClientId`), an empty array none.
    public var serviceApps: [ServiceAppConfiguration]?
    /// OAuth clients (the native app, the confidential one, …) whose token requests must carry a DPoP proof and get
    /// DPoP-bound tokens, named after Okta's app setting `dpop_bound_access_tokens`.
    public var dpopBoundAccessTokens: [String] = []
    /// Other host names of the org (`localhost` where the org URL says `127.0.0.1`): a DPoP proof's `htu` and a
    /// client assertion's `aud` may name the org URL with one of these hosts, same scheme and port. Only these
    /// count, never the request's `Host` header, which whoever replays a proof chooses.
    public var orgHostAliases: [String] = []
    /// Okta Direct Authentication: polling interval, lifetimes, number challenge, each client's grants.
    public var directAuth = DirectAuthSettings()
    /// Native SSO, Native-to-Web SSO and token exchange (`NativeSSOSettings`): more native apps, who gets a device
    /// secret, who may exchange, app assurance and interclient trust.
    public var nativeSSO = NativeSSOSettings()

    /// The default public client id: a 20-character `0oa…` id.
    public static let defaultClientId = "0oaidflowsandbox0000"

    /// The endpoint families that can be rate limited.
    public static let rateLimitFamilies = ["users", "authn", "oauth", "other"]

    /// A configuration with every default.
    public init() {}

    /// Reads a JSON configuration file; unknown keys are rejected so a typo is not silently ignored.
    public static func load(from file: URL) throws -> SandboxConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw SandboxConfigurationError.unreadable(path: file.path, reason: error.localizedDescription)
        }
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw SandboxConfigurationError.invalid(path: file.path, reason: "the top level must be a JSON object")
            }
            object = parsed
        } catch let error as SandboxConfigurationError {
            throw error
        } catch {
            throw SandboxConfigurationError.invalid(path: file.path, reason: "not valid JSON")
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw SandboxConfigurationError.unknownKeys(path: file.path, keys: unknown, known: known.sorted())
        }
        let configuration: SandboxConfiguration
        do {
            configuration = try JSONDecoder().decode(SandboxConfiguration.self, from: data)
        } catch let error as SandboxConfigurationError {
            throw error
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw SandboxConfigurationError.invalid(path: file.path, reason: "bad value for \"\(key)\": \(context.debugDescription)")
        } catch {
            throw SandboxConfigurationError.invalid(path: file.path, reason: "\(error)")
        }
        try configuration.validate()
        return configuration
    }

    /// Checks values that decode fine but cannot work; `SandboxServer.start` calls it too.
    public func validate() throws {
        let unknownFamilies = rateLimits.keys.filter { !Self.rateLimitFamilies.contains($0) }.sorted()
        if !unknownFamilies.isEmpty {
            throw SandboxConfigurationError.unknownRateLimitFamilies(unknownFamilies)
        }
        if redirectURIs.isEmpty {
            throw SandboxConfigurationError.invalidValue(key: "redirectURIs", reason: "at least one redirect URI is needed")
        }
        if !(0...65535).contains(port) {
            throw SandboxConfigurationError.invalidValue(key: "port", reason: "must be between 0 and 65535")
        }
        if rateLimitWindowSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "rateLimitWindowSeconds", reason: "must be at least 1")
        }
        if accessTokenLifetimeSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "accessTokenLifetimeSeconds", reason: "must be at least 1")
        }
        if idTokenLifetimeSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "idTokenLifetimeSeconds", reason: "must be at least 1")
        }
        if (confidentialClientId == nil) != (confidentialClientSecret == nil) || confidentialClientId == clientId {
            throw SandboxConfigurationError.invalidValue(
                key: "confidentialClientId",
                reason: "set both confidentialClientId and confidentialClientSecret, with an id other than clientId")
        }
        if pushChallengeSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "pushChallengeSeconds", reason: "must be at least 1")
        }
        if deviceIntervalSeconds < 1 {
            throw SandboxConfigurationError.invalidValue(key: "deviceIntervalSeconds", reason: "must be at least 1")
        }
        if refreshTokenGraceSeconds < 0 {
            throw SandboxConfigurationError.invalidValue(key: "refreshTokenGraceSeconds", reason: "must not be negative")
        }
        if let client = tlsClientAuthClient {
            if client.clientId.isEmpty || [clientId, confidentialClientId, customRegistration.clientId].contains(client.clientId) {
                throw SandboxConfigurationError.invalidValue(
                    key: "tlsClientAuthClient.clientId", reason: "must be set, and differ from every other client id")
            }
            if client.subjectCommonName.isEmpty {
                throw SandboxConfigurationError.invalidValue(key: "tlsClientAuthClient.subjectCommonName", reason: "must be set")
            }
        }
        try customRegistration.validate()
        try idx.validate()
        try passwordPolicy.validate()
        if [clientId, confidentialClientId].contains(customRegistration.clientId) {
            throw SandboxConfigurationError.invalidValue(
                key: "customRegistration.clientId", reason: "must differ from clientId and confidentialClientId")
        }
        let oauthClientIds = oauthClients.map(\.id)
        var serviceAppIds: [String] = []
        for app in serviceApps ?? [] {
            try app.validate(otherClientIds: oauthClientIds + serviceAppIds)
            serviceAppIds.append(app.clientId)
        }
        for alias in orgHostAliases where !URINormalization.isHost(alias) {
            throw SandboxConfigurationError.invalidValue(
                key: "orgHostAliases", reason: "\(alias) is not a host name or address (no scheme, port, path or user)")
        }
        try directAuth.validate(clientIds: oauthClientIds)
        for app in nativeSSO.apps {
            if app.clientId.isEmpty || oauthClientIds.filter({ $0 == app.clientId }).count > 1 || serviceAppIds.contains(app.clientId) {
                throw SandboxConfigurationError.invalidValue(
                    key: "nativeSSO.apps", reason: "\(app.clientId) must be set, and differ from every other client id")
            }
        }
        try nativeSSO.validate(clientIds: oauthClientIds)
        let unknownBound = dpopBoundAccessTokens.filter { !oauthClientIds.contains($0) }
        if !unknownBound.isEmpty {
            throw SandboxConfigurationError.invalidValue(
                key: "dpopBoundAccessTokens",
                reason: "\(unknownBound.joined(separator: ", ")) is not an OAuth client (known: \(oauthClientIds.joined(separator: ", ")))")
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, apiToken, clientId, redirectURIs, rateLimits, rateLimitWindowSeconds
        case refreshTokenGraceSeconds, accessTokenLifetimeSeconds, idTokenLifetimeSeconds, activationURLStyle
        case confidentialClientId, confidentialClientSecret, tlsClientAuthClient
        case mfaPolicy, pushUserVerification, pushChallengeSeconds
        case deviceIntervalSeconds, freezeClock
        case customRegistration
        case idx
        case passwordPolicy
        case serviceApps, dpopBoundAccessTokens
        case orgHostAliases
        case directAuth
        case nativeSSO
    }

    /// Missing keys keep their defaults, which synthesized `Decodable` would not do.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SandboxConfiguration()
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? defaults.host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? defaults.port
        apiToken = try container.decodeIfPresent(String.self, forKey: .apiToken)
        clientId = try container.decodeIfPresent(String.self, forKey: .clientId) ?? defaults.clientId
        redirectURIs = try container.decodeIfPresent([String].self, forKey: .redirectURIs) ?? defaults.redirectURIs
        rateLimits = try container.decodeIfPresent([String: Int].self, forKey: .rateLimits) ?? defaults.rateLimits
        rateLimitWindowSeconds =
            try container.decodeIfPresent(Int.self, forKey: .rateLimitWindowSeconds) ?? defaults.rateLimitWindowSeconds
        refreshTokenGraceSeconds =
            try container.decodeIfPresent(Int.self, forKey: .refreshTokenGraceSeconds) ?? defaults.refreshTokenGraceSeconds
        accessTokenLifetimeSeconds =
            try container.decodeIfPresent(Int.self, forKey: .accessTokenLifetimeSeconds)
            ?? defaults.accessTokenLifetimeSeconds
        idTokenLifetimeSeconds =
            try container.decodeIfPresent(Int.self, forKey: .idTokenLifetimeSeconds) ?? defaults.idTokenLifetimeSeconds
        activationURLStyle =
            try container.decodeIfPresent(ActivationURLStyle.self, forKey: .activationURLStyle) ?? defaults.activationURLStyle
        confidentialClientId = try container.decodeIfPresent(String.self, forKey: .confidentialClientId)
        confidentialClientSecret = try container.decodeIfPresent(String.self, forKey: .confidentialClientSecret)
        tlsClientAuthClient = try container.decodeIfPresent(TLSClientAuthClient.self, forKey: .tlsClientAuthClient)
        mfaPolicy = try container.decodeIfPresent(MFAPolicy.self, forKey: .mfaPolicy) ?? defaults.mfaPolicy
        pushUserVerification =
            try container.decodeIfPresent(PushUserVerification.self, forKey: .pushUserVerification)
            ?? defaults.pushUserVerification
        pushChallengeSeconds =
            try container.decodeIfPresent(Int.self, forKey: .pushChallengeSeconds) ?? defaults.pushChallengeSeconds
        deviceIntervalSeconds =
            try container.decodeIfPresent(Int.self, forKey: .deviceIntervalSeconds) ?? defaults.deviceIntervalSeconds
        freezeClock = try container.decodeIfPresent(Bool.self, forKey: .freezeClock) ?? defaults.freezeClock
        customRegistration =
            try container.decodeIfPresent(CustomRegistrationConfiguration.self, forKey: .customRegistration) ?? defaults.customRegistration
        idx = try container.decodeIfPresent(IDXPolicy.self, forKey: .idx) ?? defaults.idx
        passwordPolicy = try container.decodeIfPresent(PasswordPolicySettings.self, forKey: .passwordPolicy) ?? defaults.passwordPolicy
        serviceApps = try container.decodeIfPresent([ServiceAppConfiguration].self, forKey: .serviceApps)
        dpopBoundAccessTokens = try container.decodeIfPresent([String].self, forKey: .dpopBoundAccessTokens) ?? []
        orgHostAliases = try container.decodeIfPresent([String].self, forKey: .orgHostAliases) ?? []
        directAuth = try container.decodeIfPresent(DirectAuthSettings.self, forKey: .directAuth) ?? defaults.directAuth
        nativeSSO = try container.decodeIfPresent(NativeSSOSettings.self, forKey: .nativeSSO) ?? defaults.nativeSSO
    }
}

/// `tlsClientAuthClient`: a client registered for RFC 8705 `tls_client_auth` (`{"clientId", "subjectCommonName"}`).
public struct TLSClientAuthClient: Codable, Sendable, Equatable {
    public var clientId: String
    /// The subject common name its certificate must have (Okta's and RFC 8705's `tls_client_auth_subject_dn`,
    /// reduced to the CN).
    public var subjectCommonName: String

    public init(clientId: String, subjectCommonName: String) {
        self.clientId = clientId
        self.subjectCommonName = subjectCommonName
    }
}

/// Why a sandbox configuration cannot be used; the description is meant for a human on stderr.
public enum SandboxConfigurationError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not a JSON object of the expected types.
    case invalid(path: String, reason: String)
    /// The file names keys the sandbox does not know (usually a typo).
    case unknownKeys(path: String, keys: [String], known: [String])
    /// `rateLimits` names a family other than users, authn, oauth, other.
    case unknownRateLimitFamilies([String])
    /// A value is out of range.
    case invalidValue(key: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read sandbox configuration \(path): \(reason)"
        case .invalid(let path, let reason):
            return "invalid sandbox configuration \(path): \(reason)"
        case .unknownKeys(let path, let keys, let known):
            return "unknown key(s) in sandbox configuration \(path): \(keys.joined(separator: ", "))"
                + " (known keys: \(known.joined(separator: ", ")))"
        case .unknownRateLimitFamilies(let families):
            return "unknown rate-limit famil\(families.count == 1 ? "y" : "ies"): \(families.joined(separator: ", "))"
                + " (known: \(SandboxConfiguration.rateLimitFamilies.joined(separator: ", ")))"
        case .invalidValue(let key, let reason):
            return "invalid sandbox configuration value \"\(key)\": \(reason)"
        }
    }
}
