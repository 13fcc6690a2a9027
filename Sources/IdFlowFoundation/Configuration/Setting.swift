import Foundation

/// One configuration setting, declared once: the places its value may come from, weighed in order (flag >
/// environment > profile > `okta.yaml`), what it is, and what `doctor` shows when nothing sets it. The resolver's
/// choices (`ConfigurationResolver.choices`), `doctor`'s provenance and the list of variables idflow reads
/// (`EnvironmentVariableTypos`) all read `Setting.all`, so a setting's flag, variable or key is written once.
package struct Setting: Sendable {
    /// Every setting, by the name `doctor` shows.
    package enum Name: String, Sendable, CaseIterable {
        case orgURL, apiToken, issuer, clientID, redirectURI, scope, stateDir, tokenServer, clientSecret, timeout, maxRetries
        case authorizationMode, serviceClientID, serviceScopes, privateKey, privateKeyID, dpop, caFile, clientCert, clientKey
    }

    /// What the value is, for how `doctor` shows it.
    package enum Kind: Sendable, Equatable {
        case text
        /// Shown as present or absent, never its value.
        case secret
        /// A file's path, shown only once it names a file (`SettingPath`).
        case path
        /// A private key's file, or the key itself (shown as "(inline key)").
        case key
    }

    /// One place a value may be found. A flag's or a file's value counts as given even when empty; an empty
    /// environment variable counts as unset.
    package enum Place: Sendable {
        /// Its flag, by long name; the value typed is the setting's entry in `ConfigurationFlags.settings`.
        case flag(String)
        /// A flag that takes a number: its value is kept as the number given.
        case numberFlag(String)
        case environment(String)
        case profile(key: String, @Sendable (ProfileEntry) -> String?)
        /// A profile key whose YAML value is a number (`timeout: 5`).
        case numberProfile(key: String, @Sendable (ProfileEntry) -> Double?)
        /// A key of `~/.okta/okta.yaml`; the profile entry is given too (Okta's token is read only when the profile
        /// names none).
        case oktaYAML(key: String, @Sendable (OktaYAMLFile.Okta.Client, ProfileEntry?) -> String?)
    }

    package let name: Name
    package let places: [Place]
    package let kind: Kind
    /// What `doctor` shows when nothing sets it ("unset" when nil); the issuer's and the state directory's depend on
    /// the rest of the configuration and are filled in by the provenance.
    package let unsetValue: String?
    /// The help of its flag (the first flag of `places`), and the flag's value name; nil for a setting without a flag.
    package let help: String?
    package let valueName: String?

    init(
        _ name: Name, _ places: [Place], kind: Kind = .text, unset: String? = nil, help: String? = nil, valueName: String? = nil
    ) {
        self.name = name
        self.places = places
        self.kind = kind
        self.unsetValue = unset
        self.help = help
        self.valueName = valueName
    }

    /// The declaration of `name`.
    package static func named(_ name: Name) -> Setting {
        all.first { $0.name == name }!
    }

    /// Its flag (`--org-url`): the first flag of `places`; nil for a setting without one.
    package var flag: String? {
        places.lazy.compactMap { place -> String? in
            switch place {
            case .flag(let name), .numberFlag(let name): return name
            default: return nil
            }
        }.first
    }

    /// The environment variables this setting reads, in order.
    package var variables: [String] {
        places.compactMap { place in
            if case .environment(let name) = place { return name }
            return nil
        }
    }
}
