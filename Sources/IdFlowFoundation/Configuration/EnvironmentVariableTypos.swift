import Foundation

/// A misspelt `IDFLOW_*` or `OKTA_*` variable (`IDFLOW_STATEDIR`) is otherwise ignored without a word, and the run
/// quietly uses a default the user thought they had replaced. Each one close to a name idflow reads gets a warning
/// naming that name, as a mistyped flag does. Only names are compared and shown, never values: a variable may hold
/// a token.
public enum EnvironmentVariableTypos {
    /// Every `IDFLOW_*` and `OKTA_*` name idflow reads: the settings' (`Setting.all`) and the switches', then the names the
    /// secret options and the sandbox read where they are used, then those others read (set in a developer's shell,
    /// they are no typos). `EnvironmentVariableTyposTests` checks that every such name in the sources is here.
    public static let known: Set<String> = Set(
        Setting.all.flatMap(\.variables) + [
            ConfigurationResolver.Variable.profile, ConfigurationResolver.Variable.verbose, ConfigurationResolver.Variable.quiet,
            ConfigurationResolver.Variable.curl, ConfigurationResolver.Variable.dpopAllowBearer,
        ] + [
            "IDFLOW_PASSWORD", "IDFLOW_NEW_PASSWORD", "IDFLOW_PIN", "IDFLOW_ACTIVATION_TOKEN", "IDFLOW_ACTIVATION_URL",
            "IDFLOW_SANDBOX_LOG",
        ]
            // Read by others than idflow (so not in the man page's ENVIRONMENT): the generated curl scripts, the
            // build, the tests, the fuzzer, the scripts, and the Okta Python SDK that scripts/bench.sh runs.
            + """
            IDFLOW_OUT IDFLOW_BIN IDFLOW_DYNAMIC_BIN IDFLOW_FUZZ IDFLOW_FUZZ_TARGET IDFLOW_BENCH IDFLOW_INCLUDE_DIRS \
            IDFLOW_LIB_DIRS IDFLOW_PORTABLE OKTA_TESTING_TESTINGDISABLEHTTPSCHECK
            """.split(separator: " ").map(String.init))

    /// One warning line per unknown `IDFLOW_*` or `OKTA_*` name within two edits of a known one (Okta's SDKs read
    /// many `OKTA_CLIENT_*` names idflow does not, so only a typo's distance counts), sorted by name.
    public static func warnings(in environment: [String: String]) -> [String] {
        environment.keys.sorted().compactMap { name in
            guard name.hasPrefix("IDFLOW_") || name.hasPrefix("OKTA_"), !known.contains(name) else { return nil }
            let closest = known.map { (name: $0, distance: Suggestion.distance(name, $0)) }
                .filter { $0.distance <= 2 }
                .min { ($0.distance, $0.name) < ($1.distance, $1.name) }
            return closest.map { "warning: \(name) is not a variable idflow reads, so it is ignored; did you mean \($0.name)?" }
        }
    }
}
