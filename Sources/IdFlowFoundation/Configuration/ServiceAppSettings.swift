import Foundation

/// How management calls (`/api/v1/…`) prove who makes them: Okta's SDKs call this `authorizationMode`.
public enum ManagementMode: String, Sendable, CaseIterable {
    /// `Authorization: SSWS <API token>`, today's default.
    case apiToken = "SSWS"
    /// An OAuth 2.0 service app: a client-credentials token got with a `private_key_jwt` assertion (okta-core.md §H).
    case privateKey = "PrivateKey"
}

/// The environment variables of PrivateKey mode, as okta-sdk-python names them (okta-core.md §H6), plus
/// `OKTA_CLIENT_KID`, which that SDK does not read but docs/contract.md names.
public enum ServiceAppVariable {
    public static let authorizationMode = "OKTA_CLIENT_AUTHORIZATIONMODE"
    public static let clientID = "OKTA_CLIENT_CLIENTID"
    public static let scopes = "OKTA_CLIENT_SCOPES"
    public static let privateKey = "OKTA_CLIENT_PRIVATEKEY"
    public static let keyID = "OKTA_CLIENT_KID"
    public static let dpop = "OKTA_CLIENT_DPOPENABLED"
}

/// Where a private key comes from: a file (checked like an ssh key) or the key itself (an environment variable
/// or okta.yaml holding the key, as Okta's SDKs allow: PEM, or the JWK the Admin Console hands out, which
/// `ClientAssertionKey` refuses with its fix without repeating it).
public enum PrivateKeySource: Sendable, Equatable {
    case file(path: String, setting: String)
    case pem(String, setting: String)
}

/// The service app of PrivateKey mode and the DPoP choice, as configured; read and checked only when a command
/// needs them, so a broken key does not stop commands that never use it.
public struct ServiceAppSettings: Sendable, Equatable {
    public var clientID: String?
    public var scopes: [String] = ServiceAppSettings.defaultScopes
    public var privateKey: PrivateKeySource?
    public var keyID: String?
    /// DPoP-bind the tokens (`--dpop`, `OKTA_CLIENT_DPOPENABLED`, profile `dpop`, okta.yaml `dpopEnabled`).
    public var dpop = false

    /// Reading users and managing them: what idflow's management commands need between them.
    public static let defaultScopes = ["okta.users.read", "okta.users.manage"]

    public init() {}

    /// Scopes as the environment (commas, okta-sdk-python's form) or a flag (spaces) give them.
    static func scopes(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }).map(String.init)
    }

    /// The client id, or the error that says how to set it.
    package func requireClientID() throws(IdFlowError) -> String {
        guard let clientID, !clientID.isEmpty else {
            throw .configuration(
                "no service app client id configured",
                hint: "pass --service-client-id ID or export OKTA_CLIENT_CLIENTID (the service app's client id, 0oa…)")
        }
        return clientID
    }

    /// The private key, read and checked: a file readable by others is refused as ssh refuses one.
    package func requirePrivateKey() throws(IdFlowError) -> ClientAssertionKey {
        switch privateKey {
        case nil:
            throw .configuration(
                "no private key configured for the service app",
                hint: "pass --private-key-file PATH or export OKTA_CLIENT_PRIVATEKEY (a path, or the PEM itself)")
        case .pem(let text, let setting):
            return try ClientAssertionKey(pem: text, keyID: keyID, origin: setting)
        case .file(let path, let setting):
            try PrivateKeyPermissions.check(path, setting: setting)
            guard let data = InputFile.read(exactly: path) else {
                throw .configuration(
                    "cannot read the private key \(SettingPath.shown(path, path: path, setting: setting)), given by \(setting)",
                    hint: "check the path and its permissions")
            }
            return try ClientAssertionKey(pem: String(decoding: data, as: UTF8.self), keyID: keyID, origin: path)
        }
    }
}

extension ConfigurationResolver {
    /// PrivateKey mode's settings from the choices: flag > environment > profile > okta.yaml, as every other.
    func serviceApp(_ chosen: SettingChoices) throws(IdFlowError) -> (ManagementMode, ServiceAppSettings) {
        var mode = ManagementMode.apiToken
        if let choice = chosen[.authorizationMode] {
            guard let parsed = ManagementMode.allCases.first(where: { $0.rawValue.lowercased() == choice.text.lowercased() }) else {
                throw .invalidInput(
                    "the authorization mode \"\(choice.text)\" is not SSWS or PrivateKey",
                    hint: "SSWS sends the API token; PrivateKey gets a token as an OAuth 2.0 service app")
            }
            mode = parsed
        }
        var settings = ServiceAppSettings()
        settings.clientID = chosen[.serviceClientID]?.text
        if let scopes = chosen[.serviceScopes].map({ ServiceAppSettings.scopes($0.text) }), !scopes.isEmpty { settings.scopes = scopes }
        settings.keyID = chosen[.privateKeyID]?.text
        if let choice = chosen[.privateKey] {
            let setting: String
            switch choice.source {
            case .flag(let name): setting = name
            case .environment(let name): setting = name
            case .profile(let key): setting = "profile key \(key)"
            case .oktaYAML(let key): setting = "\(key) in \(oktaYAMLURL.path)"
            }
            settings.privateKey =
                SettingPath.isInlineKey(choice.text)
                ? .pem(choice.text, setting: setting)
                : .file(path: HomeDirectory.expand(choice.text, environment: environment), setting: setting)
        }
        if let choice = chosen[.dpop] {
            settings.dpop = ["1", "true", "yes"].contains(choice.text.lowercased())
        }
        return (mode, settings)
    }
}
