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
    /// table `resolve` takes its values from and `doctor` reports, so the two can never disagree. Which places a
    /// setting is read from, in which order, is its declaration (`Setting.all`).
    public struct SettingChoices: Sendable {
        var values: [Setting.Name: SettingChoice] = [:]

        package subscript(_ name: Setting.Name) -> SettingChoice? { values[name] }
    }

    package func choices(_ flags: ConfigurationFlags, profileName: String, entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?)
        -> SettingChoices
    {
        var chosen = SettingChoices()
        for setting in Setting.all {
            chosen.values[setting.name] =
                setting.places.lazy.compactMap { place in
                    self.choice(at: place, of: setting.name, flags: flags, entry: entry, okta: okta)
                }.first
        }
        return chosen
    }

    /// The value at one place, if it is set there.
    private func choice(
        at place: Setting.Place, of setting: Setting.Name, flags: ConfigurationFlags, entry: ProfileEntry?,
        okta: OktaYAMLFile.Okta.Client?
    ) -> SettingChoice? {
        switch place {
        case .flag(let name):
            return flags.settings[setting].map { SettingChoice(text: $0, source: .flag(name)) }
        case .numberFlag(let name):
            // ArgumentParser checked the number; text that is none is refused later, as a variable's would be.
            return flags.settings[setting].map { text in
                let number = Double(text)
                return SettingChoice(text: number.map(Self.format) ?? text, source: .flag(name), number: number)
            }
        case .environment(let name):
            // An empty variable counts as unset (`env`); a flag or file value counts as given, even empty.
            return env(name).map { SettingChoice(text: $0, source: .environment(name)) }
        case .profile(let key, let read):
            return entry.flatMap(read).map { SettingChoice(text: $0, source: .profile(key: key)) }
        case .numberProfile(let key, let read):
            return entry.flatMap(read).map { SettingChoice(text: Self.format($0), source: .profile(key: key), number: $0) }
        case .oktaYAML(let key, let read):
            return okta.flatMap { read($0, entry) }.map { SettingChoice(text: $0, source: .oktaYAML(key: key)) }
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
