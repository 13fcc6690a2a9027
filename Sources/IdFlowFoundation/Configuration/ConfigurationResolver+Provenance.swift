import Foundation

/// One setting as `doctor` shows it: its value (a secret only as present) and where it came from.
public struct SettingProvenance: Sendable, Equatable {
    public var name: String
    public var value: String
    /// `--org-url`, `env OKTA_CLIENT_ORGURL`, `profile staging in /home/jo/.config/idflow/config.yaml (orgUrl)`,
    /// `/home/jo/.okta/okta.yaml (okta.client.orgUrl)`, `default`, or `unset`.
    public var origin: String

    public init(name: String, value: String, origin: String) {
        self.name = name
        self.value = value
        self.origin = origin
    }

    /// `orgURL=https://dev-123.okta.com (--org-url)`.
    public var summary: String { "\(name)=\(value) (\(origin))" }
}

/// What `ConfigurationResolver.provenance` found.
public struct ConfigurationProvenance: Sendable {
    public var settings: [SettingProvenance]
    /// What kept files from being read (an unknown profile, a file that is not YAML).
    public var problems: [IdFlowError]
    /// The state directory the choices name, known even when the configuration as a whole is unusable.
    public var stateDirectory: URL
}

extension ConfigurationResolver {
    /// Every setting with its value and origin, read from the same choices `resolve` makes, and the problems
    /// found reading the files on the way (an unknown profile, a file that is not YAML). Never throws: `doctor`
    /// reports a configuration no other command can run with.
    public func provenance(_ flags: ConfigurationFlags) -> ConfigurationProvenance {
        var problems: [IdFlowError] = []
        let profileName = profileName(flag: flags.profile)
        var entry: ProfileEntry?
        do throws(IdFlowError) {
            entry = try profileEntry(flags).entry
        } catch {
            problems.append(error)
        }
        var okta: OktaYAMLFile.Okta.Client?
        do throws(IdFlowError) {
            okta = try YAMLFile.load(OktaYAMLFile.self, at: oktaYAMLURL)?.okta?.client
        } catch {
            problems.append(error)
        }
        let chosen = choices(flags, profileName: profileName, entry: entry, okta: okta)

        func origin(_ source: SettingSource) -> String {
            switch source {
            case .flag(let name): return name
            case .environment(let name): return "env \(name)"
            case .profile(let key): return "profile \(profileName) in \(profileFileURL.path) (\(key))"
            case .oktaYAML(let key): return "\(oktaYAMLURL.path) (\(key))"
            }
        }
        func setting(_ name: String, _ choice: SettingChoice?, secret: Bool = false, default fallback: String? = nil) -> SettingProvenance {
            guard let choice else {
                return SettingProvenance(
                    name: name, value: secret ? "absent" : (fallback ?? "unset"), origin: fallback == nil ? "unset" : "default")
            }
            return SettingProvenance(name: name, value: secret ? "present" : choice.text, origin: origin(choice.source))
        }
        let profileOrigin =
            flags.profile != nil ? "--profile" : env(Variable.profile) != nil ? "env \(Variable.profile)" : "default"
        var settings = [
            SettingProvenance(name: "profile", value: profileName, origin: profileOrigin),
            setting("orgURL", chosen.orgURL),
            setting("apiToken", chosen.apiToken, secret: true),
            setting("issuer", chosen.issuer, default: chosen.orgURL.map { _ in "{orgURL}/oauth2/default" }),
            setting("clientID", chosen.clientID),
            setting("redirectURI", chosen.redirectURI),
            setting("scope", chosen.scope, default: Configuration.defaultScope),
            setting("stateDir", chosen.stateDirectory, default: defaultStateDirectory.path),
            setting("tokenServer", chosen.tokenServer),
            setting("clientSecret", chosen.clientSecret, secret: true),
            setting("timeout", chosen.timeout, default: "30"),
            setting("maxRetries", chosen.maxRetries, default: "3"),
            setting("authorizationMode", chosen.authorizationMode, default: ManagementMode.apiToken.rawValue),
            setting("serviceClientID", chosen.serviceClientID),
            setting("serviceScopes", chosen.serviceScopes, default: ServiceAppSettings.defaultScopes.joined(separator: " ")),
            setting(
                "privateKey",
                chosen.privateKey.map {
                    ServiceAppSettings.keyChoiceShown(
                        $0, path: HomeDirectory.expand($0.text, environment: environment), setting: origin($0.source))
                }),
            setting("privateKeyID", chosen.privateKeyID),
            setting("dpop", chosen.dpop, default: "false"),
        ]
        /// A file's setting: where it came from, and its path only once it names a file (`SettingPath`).
        func file(_ name: String, _ choice: SettingChoice?) -> SettingProvenance {
            guard let choice else { return SettingProvenance(name: name, value: "unset", origin: "unset") }
            let path = expand(choice.text)
            return SettingProvenance(
                name: name, value: SettingPath.shown(path, path: path, setting: choice.source.settingName), origin: origin(choice.source))
        }
        settings.append(file("caFile", chosen.caFile))
        settings.append(file("clientCert", chosen.clientCertificate))
        settings.append(file("clientKey", chosen.clientKey))
        if let proxy = proxyChoice(flags, profile: entry, okta: okta), !proxy.text.isEmpty {
            settings.append(
                SettingProvenance(name: "proxy", value: Redactor.userInfo(proxy.text), origin: origin(proxy.source)))
        } else {
            settings.append(SettingProvenance(name: "proxy", value: "none", origin: flags.proxy != nil ? "--proxy" : "unset"))
        }
        return ConfigurationProvenance(settings: settings, problems: problems, stateDirectory: stateDirectory(chosen.stateDirectory))
    }
}
