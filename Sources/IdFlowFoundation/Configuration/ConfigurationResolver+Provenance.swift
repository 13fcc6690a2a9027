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
        /// What nothing set shows: the declared default, or one that depends on the rest (the issuer on the org).
        func unset(_ setting: Setting) -> String? {
            switch setting.name {
            case .issuer: return chosen[.orgURL].map { _ in "{orgURL}/oauth2/default" }
            case .stateDir: return defaultStateDirectory.path
            default: return setting.unsetValue
            }
        }
        func provenance(of setting: Setting) -> SettingProvenance {
            let name = setting.name.rawValue
            guard let choice = chosen[setting.name] else {
                let fallback = unset(setting)
                return SettingProvenance(
                    name: name, value: setting.kind == .secret ? "absent" : (fallback ?? "unset"),
                    origin: fallback == nil ? "unset" : "default")
            }
            let path = expand(choice.text)
            let value: String
            switch setting.kind {
            case .text: value = choice.text
            case .secret: value = "present"
            // A key in a variable or okta.yaml may be the key itself: shown only as a path that exists, or as "(inline key)".
            case .key: value = SettingPath.shown(choice.text, path: path, setting: origin(choice.source))
            case .path: value = SettingPath.shown(path, path: path, setting: choice.source.settingName)
            }
            return SettingProvenance(name: name, value: value, origin: origin(choice.source))
        }
        let profileOrigin =
            flags.profile != nil ? "--profile" : env(Variable.profile) != nil ? "env \(Variable.profile)" : "default"
        var settings = [SettingProvenance(name: "profile", value: profileName, origin: profileOrigin)] + Setting.all.map(provenance)
        if let proxy = proxyChoice(flags, profile: entry, okta: okta), !proxy.text.isEmpty {
            settings.append(
                SettingProvenance(name: "proxy", value: Redactor.userInfo(proxy.text), origin: origin(proxy.source)))
        } else {
            settings.append(SettingProvenance(name: "proxy", value: "none", origin: flags.proxy != nil ? "--proxy" : "unset"))
        }
        return ConfigurationProvenance(settings: settings, problems: problems, stateDirectory: stateDirectory(chosen[.stateDir]))
    }
}
