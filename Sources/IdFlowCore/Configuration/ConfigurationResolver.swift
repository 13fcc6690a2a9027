import Foundation

/// Weighs every source of a setting: flag > environment > profile file > `~/.okta/okta.yaml` > default.
public struct ConfigurationResolver: Sendable {
    public var environment: [String: String]
    public var secrets: SecretReader

    public init(environment: [String: String], secrets: SecretReader) {
        self.environment = environment
        self.secrets = secrets
    }

    /// The environment variables idflow reads, Okta's own names first.
    public enum Variable {
        public static let orgURL = "OKTA_CLIENT_ORGURL"
        public static let apiToken = "OKTA_CLIENT_TOKEN"
        public static let issuer = "OKTA_OAUTH2_ISSUER"
        public static let clientID = "OKTA_OAUTH2_CLIENTID"
        public static let redirectURI = "OKTA_OAUTH2_REDIRECTURI"
        public static let scope = "IDFLOW_SCOPE"
        public static let profile = "IDFLOW_PROFILE"
        public static let stateDirectory = "IDFLOW_STATE_DIR"
        public static let verbose = "IDFLOW_VERBOSE"
        public static let quiet = "IDFLOW_QUIET"
        public static let curl = "IDFLOW_CURL"
        public static let timeout = "IDFLOW_TIMEOUT"
        public static let maxRetries = "IDFLOW_MAX_RETRIES"
        public static let tokenServer = "IDFLOW_TOKEN_SERVER"
        public static let clientSecret = "OKTA_OAUTH2_CLIENTSECRET"
    }

    var home: URL {
        URL(fileURLWithPath: HomeDirectory.path(environment: environment), isDirectory: true)
    }

    /// `$XDG_CONFIG_HOME/idflow/config.yaml`.
    public var profileFileURL: URL {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? home.appendingPathComponent(".config", isDirectory: true)
        return base.appendingPathComponent("idflow/config.yaml")
    }

    public var oktaYAMLURL: URL { home.appendingPathComponent(".okta/okta.yaml") }

    /// `$XDG_STATE_HOME/idflow`, else `~/.local/state/idflow`.
    var defaultStateDirectory: URL {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? home.appendingPathComponent(".local/state", isDirectory: true)
        return base.appendingPathComponent("idflow", isDirectory: true)
    }

    func env(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The profile in use: `--profile` > `IDFLOW_PROFILE` > `default`.
    func profileName(flag: String?) -> String {
        flag ?? env(Variable.profile) ?? "default"
    }

    /// The org URL as given: `--org-url` > `OKTA_CLIENT_ORGURL` > the profile > `okta.yaml`.
    func orgURLText(flag: String?, profile entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?) -> String? {
        flag ?? env(Variable.orgURL) ?? entry?.orgUrl ?? okta?.orgUrl
    }

    /// Where tokens and keys live: `--state-dir` > `IDFLOW_STATE_DIR` > the profile's `stateDir` > the XDG default.
    func stateDirectory(flag: String?, profile entry: ProfileEntry?) -> URL {
        (flag ?? env(Variable.stateDirectory) ?? entry?.stateDir)
            .map { URL(fileURLWithPath: HomeDirectory.expand($0, environment: environment), isDirectory: true) } ?? defaultStateDirectory
    }

    public func resolve(_ flags: ConfigurationFlags) throws(IdFlowError) -> Configuration {
        let profileName = profileName(flag: flags.profile)
        let profiles = try YAMLFile.load(ProfileFile.self, at: profileFileURL)?.profiles ?? [:]
        let entry = profiles[profileName]
        if entry == nil, profileName != "default" {
            let known = profiles.keys.sorted()
            throw .configuration(
                "profile \"\(profileName)\" is not defined in \(profileFileURL.path)",
                hint: known.isEmpty
                    ? "that file defines no profiles: add `profiles: {\(profileName): {orgUrl: …}}` to it, or drop --profile/IDFLOW_PROFILE"
                    : "add it under `profiles:` or pick one of: \(known.joined(separator: ", "))\(Suggestion.didYouMean(profileName, among: known))"
            )
        }
        let okta = try YAMLFile.load(OktaYAMLFile.self, at: oktaYAMLURL)?.okta?.client

        let orgText = orgURLText(flag: flags.orgURL, profile: entry, okta: okta)
        let issuerText = flags.issuer ?? env(Variable.issuer) ?? entry?.issuer
        var configuration = Configuration(
            orgURL: try orgText.map { text throws(IdFlowError) in try Self.parseBaseURL(text, setting: "org URL") },
            apiToken: try resolveAPIToken(flags, entry: entry, okta: okta),
            issuer: try issuerText.map { text throws(IdFlowError) in try Self.parseBaseURL(text, setting: "issuer") },
            clientID: flags.clientID ?? env(Variable.clientID) ?? entry?.clientId,
            redirectURI: flags.redirectURI ?? env(Variable.redirectURI) ?? entry?.redirectUri,
            scope: flags.scope ?? env(Variable.scope) ?? entry?.scope ?? Configuration.defaultScope,
            profile: profileName,
            stateDirectory: stateDirectory(flag: flags.stateDirectory, profile: entry),
            verbose: flags.verbose || ["1", "true", "yes"].contains(env(Variable.verbose)?.lowercased() ?? ""))
        configuration.quiet = flags.quiet || ["1", "true", "yes"].contains(env(Variable.quiet)?.lowercased() ?? "")
        if let path = flags.curlFile {
            configuration.curl = .file(HomeDirectory.expand(path, environment: environment))
        } else if flags.curl || ["1", "true", "yes"].contains(env(Variable.curl)?.lowercased() ?? "") {
            configuration.curl = .standardError
        }
        configuration.explicitScope = flags.scope ?? env(Variable.scope) ?? entry?.scope
        configuration.tokenServer = try (env(Variable.tokenServer) ?? entry?.tokenServer).map { text throws(IdFlowError) in
            try Self.parseBaseURL(text, setting: "token server")
        }
        configuration.transportOptions = try transportOptions(flags, profile: entry, okta: okta)
        configuration.clientSecretSource =
            env(Variable.clientSecret) != nil ? .environment(Variable.clientSecret) : entry?.clientSecretFile.map(SecretSource.file)

        var timeoutSeconds = flags.timeoutSeconds ?? entry?.timeout
        if flags.timeoutSeconds == nil, let text = env(Variable.timeout) { timeoutSeconds = try Self.number(text, Variable.timeout) }
        if let seconds = timeoutSeconds {
            guard seconds > 0, seconds <= 3600 else {
                throw .invalidInput("the timeout must be more than 0 and at most 3600 seconds, not \(seconds)")
            }
            configuration.timeout = .milliseconds(Int(seconds * 1000))
        }
        var maxRetries = flags.maxRetries ?? entry?.maxRetries
        if flags.maxRetries == nil, let text = env(Variable.maxRetries) { maxRetries = Int(try Self.number(text, Variable.maxRetries)) }
        if let retries = maxRetries {
            guard (0...20).contains(retries) else {
                throw .invalidInput("--max-retries must be between 0 and 20, not \(retries)")
            }
            configuration.maxRetries = retries
        }
        return configuration
    }

    private func resolveAPIToken(_ flags: ConfigurationFlags, entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?) throws(IdFlowError)
        -> Secret?
    {
        if let file = flags.apiTokenFile { return try secrets.read("API token", from: .file(file)) }
        if let token = flags.apiToken { return try secrets.read("API token", from: .argument(token)) }
        if let token = env(Variable.apiToken) { return Secret(token) }
        if let file = entry?.apiTokenFile { return try secrets.read("API token", from: .file(file)) }
        if let token = entry?.apiToken ?? okta?.token, !token.isEmpty { return Secret(token) }
        return nil
    }

    /// Parses an org or issuer URL: absolute http(s) with a host, no query; a trailing slash is dropped.
    public static func parseBaseURL(_ text: String, setting: String) throws(IdFlowError) -> URL {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.query == nil
        else {
            throw .invalidInput("the \(setting) \"\(text)\" is not an absolute http(s) URL", hint: "for example https://dev-123.okta.com")
        }
        return url
    }

    private static func number(_ text: String, _ name: String) throws(IdFlowError) -> Double {
        guard let value = Double(text) else { throw .invalidInput("\(name)=\(text) is not a number") }
        return value
    }
}
