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
        /// The login client's settings under provider-neutral names, read first; Okta's SDK names below are read as
        /// aliases, so an Okta shell keeps working and a profile for any other provider needs no `OKTA_` name.
        public static let issuer = "IDFLOW_ISSUER"
        public static let clientID = "IDFLOW_CLIENT_ID"
        public static let redirectURI = "IDFLOW_REDIRECT_URI"
        /// A file holding the client secret (the neutral counterpart of `OKTA_OAUTH2_CLIENTSECRET`, which holds the
        /// secret itself).
        public static let clientSecretFile = "IDFLOW_CLIENT_SECRET_FILE"
        public static let oktaIssuer = "OKTA_OAUTH2_ISSUER"
        public static let oktaClientID = "OKTA_OAUTH2_CLIENTID"
        public static let oktaRedirectURI = "OKTA_OAUTH2_REDIRECTURI"
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
        public static let dpopAllowBearer = "IDFLOW_DPOP_ALLOW_BEARER"
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
    package func profileName(flag: String?) -> String {
        flag ?? env(Variable.profile) ?? "default"
    }

    /// Where tokens and keys live: the chosen text with `~` expanded, else the XDG default.
    package func stateDirectory(_ choice: SettingChoice?) -> URL {
        choice.map { URL(fileURLWithPath: HomeDirectory.expand($0.text, environment: environment), isDirectory: true) }
            ?? defaultStateDirectory
    }

    /// The profile named and its entry in the profile file; an unknown profile (other than `default`) or an
    /// unreadable file is an error.
    func profileEntry(_ flags: ConfigurationFlags) throws(IdFlowError) -> (name: String, entry: ProfileEntry?, defined: Set<String>) {
        let profileName = profileName(flag: flags.profile)
        let profiles = try YAMLFile.load(ProfileFile.self, at: profileFileURL)?.profiles ?? [:]
        let entry = profiles[profileName]
        if entry == nil, profileName != "default" {
            throw Self.undefinedProfile(profileName, known: Set(profiles.keys), file: profileFileURL, option: "--profile/IDFLOW_PROFILE")
        }
        return (profileName, entry, Set(profiles.keys))
    }

    /// A profile the profile file does not define (only `default` needs no entry), with the fix: define it or pick
    /// a known one. `option` names what chose the profile.
    package static func undefinedProfile(_ name: String, known: Set<String>, file: URL, option: String) -> IdFlowError {
        let known = known.sorted()
        return .configuration(
            "profile \"\(name)\" is not defined in \(file.path)",
            hint: known.isEmpty
                ? "that file defines no profiles: add `profiles: {\(name): {orgUrl: …}}` to it, or drop \(option)"
                : "add it under `profiles:` or pick one of: \(known.joined(separator: ", "))\(Suggestion.didYouMean(name, among: known))"
        )
    }

    public func resolve(_ flags: ConfigurationFlags) throws(IdFlowError) -> Configuration {
        let (profileName, entry, defined) = try profileEntry(flags)
        let okta = try YAMLFile.load(OktaYAMLFile.self, at: oktaYAMLURL)?.okta?.client
        let chosen = choices(flags, profileName: profileName, entry: entry, okta: okta)

        var configuration = Configuration(
            orgURL: try chosen[.orgURL].map { choice throws(IdFlowError) in try Self.parseOrgURL(choice.text) },
            apiToken: try resolveAPIToken(chosen[.apiToken]),
            issuer: try chosen[.issuer].map { choice throws(IdFlowError) in try Self.parseBaseURL(choice.text, setting: "issuer") },
            clientID: chosen[.clientID]?.text,
            redirectURI: chosen[.redirectURI]?.text,
            scope: chosen[.scope]?.text ?? Configuration.defaultScope,
            profile: profileName,
            stateDirectory: stateDirectory(chosen[.stateDir]),
            verbose: flags.verbose || ["1", "true", "yes"].contains(env(Variable.verbose)?.lowercased() ?? ""))
        configuration.quiet = flags.quiet || ["1", "true", "yes"].contains(env(Variable.quiet)?.lowercased() ?? "")
        if let path = flags.curlFile {
            configuration.curl = .file(HomeDirectory.expand(path, environment: environment))
        } else if flags.curl || ["1", "true", "yes"].contains(env(Variable.curl)?.lowercased() ?? "") {
            configuration.curl = .standardError
        }
        configuration.explicitScope = chosen[.scope]?.text
        configuration.definedProfiles = defined
        configuration.profileFile = profileFileURL
        configuration.tokenServer = try chosen[.tokenServer].map { choice throws(IdFlowError) in
            try Self.parseBaseURL(choice.text, setting: "token server")
        }
        configuration.transportOptions = try transportOptions(chosen, flags, profile: entry, okta: okta)
        (configuration.managementMode, configuration.serviceApp) = try serviceApp(chosen)
        configuration.bindsLoginsWithDPoP = flags.settings[.dpop] != nil || entry?.dpop == true
        configuration.acceptsBearerInPlaceOfDPoP = ["1", "true", "yes"].contains(env(Variable.dpopAllowBearer)?.lowercased() ?? "")
        configuration.clientSecretSource = chosen[.clientSecret].map { choice in
            choice.source == .environment(Variable.clientSecret)
                ? .environment(Variable.clientSecret) : .file(HomeDirectory.expand(choice.text, environment: environment))
        }

        var timeoutSeconds: Double?
        if let choice = chosen[.timeout] {
            timeoutSeconds = choice.number
            if timeoutSeconds == nil { timeoutSeconds = try Self.number(choice.text, Variable.timeout) }
        }
        if let seconds = timeoutSeconds {
            guard seconds > 0, seconds <= 3600 else {
                throw .invalidInput("the timeout must be more than 0 and at most 3600 seconds, not \(seconds)")
            }
            configuration.timeout = .milliseconds(Int(seconds * 1000))
        }
        var maxRetries: Int?
        if let choice = chosen[.maxRetries] {
            maxRetries = Int(choice.number ?? 0)
            if choice.number == nil { maxRetries = Int(try Self.number(choice.text, Variable.maxRetries)) }
        }
        if let retries = maxRetries {
            guard (0...20).contains(retries) else {
                throw .invalidInput("--max-retries must be between 0 and 20, not \(retries)")
            }
            configuration.maxRetries = retries
        }
        return configuration
    }

    /// The API token of the chosen source: a file is read, a value taken as it is.
    private func resolveAPIToken(_ choice: SettingChoice?) throws(IdFlowError) -> Secret? {
        guard let choice else { return nil }
        switch choice.source {
        case .flag, .profile(key: "apiTokenFile"): return try secrets.read("API token", from: .file(choice.text))
        default: return Secret(choice.text)
        }
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

    /// An org URL is the org's origin alone. One with a path is almost always the issuer pasted in its place
    /// (`https://x.okta.com/oauth2/default`), which would otherwise fail later as a 404 on `/oauth2/default/api/v1/…`
    /// that reads like a wrong id or login.
    public static func parseOrgURL(_ text: String) throws(IdFlowError) -> URL {
        let url = try parseBaseURL(text, setting: "org URL")
        guard url.path.isEmpty || url.path == "/" else {
            let suggestion = Origin(url)?.description ?? "the URL without its path"
            throw .configuration(
                "the org URL has a path (\(url.path)); did you mean \(suggestion)?",
                hint: "give the org URL without a path (--org-url \(suggestion)); an authorization server's URL such as "
                    + "\(suggestion)/oauth2/default goes in --issuer")
        }
        return url
    }

    private static func number(_ text: String, _ name: String) throws(IdFlowError) -> Double {
        guard let value = Double(text) else { throw .invalidInput("\(name)=\(text) is not a number") }
        return value
    }
}
