import Foundation
import IdFlowFoundation

/// The values of a command line that only this machine knows (profile names, kept enrollments, stopped
/// embedded sign-ins), offered by the shells' completion scripts.
///
/// A completion runs at every TAB, inside the user's shell: it reads local files only and never the network,
/// offers names and ids only (never a token or a key), and a missing or unreadable file yields no candidates
/// rather than an error, because whatever it printed would land on the user's command line.
public struct CompletionCandidates: Sendable {
    /// The flags already typed that decide where to look (`--profile`, `--state-dir`, `--org-url`).
    public var flags: ConfigurationFlags
    public var environment: [String: String]

    public init(flags: ConfigurationFlags, environment: [String: String]) {
        self.flags = flags
        self.environment = environment
    }

    /// Reads the deciding flags from the shell words of the command line being completed, as the completion
    /// scripts pass them: verbatim, so a quoted value keeps its quotes until removed here.
    public init(words: [String], environment: [String: String]) {
        var values: [String: String] = [:]
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            for name in ["--profile", "--state-dir", "--org-url"] {
                if word == name, index + 1 < words.endIndex {
                    values[name] = Self.unquoted(words[index + 1])
                } else if word.hasPrefix(name + "=") {
                    values[name] = Self.unquoted(String(word.dropFirst(name.count + 1)))
                }
            }
            index += 1
        }
        self.init(
            flags: ConfigurationFlags(typed: values),
            environment: environment)
    }

    /// The profiles of `$XDG_CONFIG_HOME/idflow/config.yaml`, sorted (`~/.okta/okta.yaml` has none).
    public func profileNames() -> [String] {
        profiles().keys.sorted()
    }

    /// The ids of the enrollments kept for the configured org, or for every org when none is configured:
    /// what `enroll update`, `enroll delete` and `--enrollment` accept.
    public func enrollmentIDs() -> [String] {
        let store = DeviceStore(stateDirectory: stateDirectory)
        let records = (try? store.enrollments(orgURL: orgURL)) ?? (try? store.enrollments(orgURL: nil)) ?? []
        return records.map(\.enrollmentId)
    }

    /// The embedded sign-ins a script stopped that `--resume` can still continue.
    public func pendingTransactionIDs(now: Date = Date()) -> [String] {
        IDX.Transactions(stateDirectory: stateDirectory).pendingIDs(now: now)
    }

    // MARK: - Where to look, weighed by `ConfigurationResolver` itself

    private var resolver: ConfigurationResolver {
        ConfigurationResolver(
            environment: environment, secrets: SecretReader(readStandardInput: { Data() }, environment: [:], warn: { _ in }))
    }

    private func profiles() -> [String: ProfileEntry] {
        (try? YAMLFile.load(ProfileFile.self, at: resolver.profileFileURL))?.profiles ?? [:]
    }

    private var profile: ProfileEntry? {
        profiles()[resolver.profileName(flag: flags.profile)]
    }

    private var chosen: ConfigurationResolver.SettingChoices {
        let okta = (try? YAMLFile.load(OktaYAMLFile.self, at: resolver.oktaYAMLURL))?.okta?.client
        return resolver.choices(flags, profileName: resolver.profileName(flag: flags.profile), entry: profile, okta: okta)
    }

    var stateDirectory: URL {
        resolver.stateDirectory(chosen[.stateDir])
    }

    private var orgURL: URL? {
        chosen[.orgURL].flatMap { try? ConfigurationResolver.parseOrgURL($0.text) }
    }

    private static func unquoted(_ word: String) -> String {
        for quote in ["\"", "'"] where word.count >= 2 && word.hasPrefix(quote) && word.hasSuffix(quote) {
            return String(word.dropFirst().dropLast())
        }
        return word
    }
}
