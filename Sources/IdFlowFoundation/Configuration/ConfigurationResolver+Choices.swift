import Foundation

extension ConfigurationResolver {
    /// Where a setting's text came from.
    public enum SettingSource: Sendable, Equatable {
        /// A command-line flag, by its spelling (`--org-url`).
        case flag(String)
        /// An environment variable, by its name.
        case environment(String)
        /// A key of the profile in use, in the profile file.
        case profile(key: String)
        /// A key of `~/.okta/okta.yaml`.
        case oktaYAML(key: String)

        /// How a message names where the value came from: `--ca-file`, `IDFLOW_CA_FILE`, `profile key caFile`,
        /// `okta.client.orgUrl`.
        public var settingName: String {
            switch self {
            case .flag(let name), .environment(let name): return name
            case .profile(let key): return "profile key \(key)"
            case .oktaYAML(let key): return key
            }
        }
    }

    /// One setting's text as given, and where it was found.
    public struct SettingChoice: Sendable, Equatable {
        public var text: String
        public var source: SettingSource
        /// A number the profile file gave as a number (`timeout: 5`), so it is not read back from text.
        var number: Double?
    }

    /// The text of every setting weighed flag > environment > profile > `okta.yaml`, with its source: the one
    /// table `resolve` takes its values from and `doctor` reports, so the two can never disagree.
    public struct SettingChoices: Sendable {
        public var orgURL: SettingChoice?
        public var apiToken: SettingChoice?
        public var issuer: SettingChoice?
        public var clientID: SettingChoice?
        public var redirectURI: SettingChoice?
        public var scope: SettingChoice?
        public var stateDirectory: SettingChoice?
        public var tokenServer: SettingChoice?
        public var clientSecret: SettingChoice?
        public var timeout: SettingChoice?
        public var maxRetries: SettingChoice?
        public var authorizationMode: SettingChoice?
        public var serviceClientID: SettingChoice?
        public var serviceScopes: SettingChoice?
        public var privateKey: SettingChoice?
        public var privateKeyID: SettingChoice?
        public var dpop: SettingChoice?
        /// Company networks: the CA bundle added to the system's, and the client certificate and its key.
        public var caFile: SettingChoice?
        public var clientCertificate: SettingChoice?
        public var clientKey: SettingChoice?
    }

    package func choices(_ flags: ConfigurationFlags, profileName: String, entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?)
        -> SettingChoices
    {
        func first(_ candidates: (String?, SettingSource)...) -> SettingChoice? {
            for (text, source) in candidates {
                // An empty variable counts as unset (`env`); a flag or file value counts as given, even empty.
                guard let text else { continue }
                return SettingChoice(text: text, source: source)
            }
            return nil
        }
        func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        func variable(_ name: String) -> (String?, SettingSource) { (env(name), .environment(name)) }
        func number(_ flag: Double?, _ flagName: String, _ name: String, _ profileValue: Double?, _ key: String) -> SettingChoice? {
            if let flag { return SettingChoice(text: Self.format(flag), source: .flag(flagName), number: flag) }
            if let text = env(name) { return SettingChoice(text: text, source: .environment(name)) }
            if let profileValue { return SettingChoice(text: Self.format(profileValue), source: .profile(key: key), number: profileValue) }
            return nil
        }
        return SettingChoices(
            orgURL: first(
                (flags.orgURL, .flag("--org-url")), variable(Variable.orgURL), (entry?.orgUrl, .profile(key: "orgUrl")),
                (okta?.orgUrl, .oktaYAML(key: "okta.client.orgUrl"))),
            apiToken: first(
                (flags.apiTokenFile, .flag("--api-token-file")), (flags.apiToken, .flag("--api-token")), variable(Variable.apiToken),
                (entry?.apiTokenFile, .profile(key: "apiTokenFile")), (nonEmpty(entry?.apiToken), .profile(key: "apiToken")),
                (entry?.apiToken == nil ? nonEmpty(okta?.token) : nil, .oktaYAML(key: "okta.client.token"))),
            issuer: first(
                (flags.issuer, .flag("--issuer")), variable(Variable.issuer), variable(Variable.oktaIssuer),
                (entry?.issuer, .profile(key: "issuer"))),
            clientID: first(
                (flags.clientID, .flag("--client-id")), variable(Variable.clientID), variable(Variable.oktaClientID),
                (entry?.clientId, .profile(key: "clientId"))),
            redirectURI: first(
                (flags.redirectURI, .flag("--redirect-uri")), variable(Variable.redirectURI), variable(Variable.oktaRedirectURI),
                (entry?.redirectUri, .profile(key: "redirectUri"))),
            scope: first((flags.scope, .flag("--scope")), variable(Variable.scope), (entry?.scope, .profile(key: "scope"))),
            stateDirectory: first(
                (flags.stateDirectory, .flag("--state-dir")), variable(Variable.stateDirectory),
                (entry?.stateDir, .profile(key: "stateDir"))),
            tokenServer: first(variable(Variable.tokenServer), (entry?.tokenServer, .profile(key: "tokenServer"))),
            clientSecret: first(
                variable(Variable.clientSecretFile), variable(Variable.clientSecret),
                (entry?.clientSecretFile, .profile(key: "clientSecretFile"))),
            timeout: number(flags.timeoutSeconds, "--timeout", Variable.timeout, entry?.timeout, "timeout"),
            maxRetries: number(
                flags.maxRetries.map { Double($0) }, "--max-retries", Variable.maxRetries, entry?.maxRetries.map { Double($0) },
                "maxRetries"),
            authorizationMode: first(
                (flags.authorizationMode, .flag("--authorization-mode")), variable(ServiceAppVariable.authorizationMode),
                (entry?.authorizationMode, .profile(key: "authorizationMode")),
                (okta?.authorizationMode, .oktaYAML(key: "okta.client.authorizationMode"))),
            serviceClientID: first(
                (flags.serviceClientID, .flag("--service-client-id")), variable(ServiceAppVariable.clientID),
                (entry?.serviceClientId, .profile(key: "serviceClientId")), (okta?.clientId, .oktaYAML(key: "okta.client.clientId"))),
            serviceScopes: first(
                (flags.serviceScopes, .flag("--service-scopes")), variable(ServiceAppVariable.scopes),
                (entry?.serviceScopes, .profile(key: "serviceScopes")), (okta?.scopes?.text, .oktaYAML(key: "okta.client.scopes"))),
            privateKey: first(
                (flags.privateKeyFile, .flag("--private-key-file")), variable(ServiceAppVariable.privateKey),
                (entry?.privateKeyFile, .profile(key: "privateKeyFile")), (okta?.privateKey, .oktaYAML(key: "okta.client.privateKey"))),
            privateKeyID: first(
                (flags.privateKeyID, .flag("--private-key-id")), variable(ServiceAppVariable.keyID),
                (entry?.privateKeyId, .profile(key: "privateKeyId")), (okta?.kid, .oktaYAML(key: "okta.client.kid"))),
            dpop: first(
                (flags.dpop ? "true" : nil, .flag("--dpop")), variable(ServiceAppVariable.dpop),
                (entry?.dpop.map { String($0) }, .profile(key: "dpop")),
                (okta?.dpopEnabled.map { String($0.value) }, .oktaYAML(key: "okta.client.dpopEnabled"))),
            caFile: first(
                (flags.caFile, .flag("--ca-file")), variable(NetworkVariable.caFile), (nonEmpty(entry?.caFile), .profile(key: "caFile"))),
            clientCertificate: first(
                (flags.clientCertificate, .flag("--client-cert")), variable(NetworkVariable.clientCertificate),
                (nonEmpty(entry?.clientCert), .profile(key: "clientCert"))),
            clientKey: first(
                (flags.clientKey, .flag("--client-key")), variable(NetworkVariable.clientKey),
                (nonEmpty(entry?.clientKey), .profile(key: "clientKey")))
        )
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
