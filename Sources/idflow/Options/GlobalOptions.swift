import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// The configuration flags every subcommand accepts (docs/contract.md, "Configuration").
///
/// Each command declares them as `@OptionGroup(title: GlobalOptions.title, visibility: .hidden)`. Hidden, because
/// the same 28 options described in every command's `--help` (and page, and completion function) would bury the
/// command's own options: `--help` ends its discussion with `helpNote` instead, `--help-hidden` lists them under
/// their title, and they are described once, in `man idflow` under CONFIGURATION OPTIONS (scripts/gen-man.sh makes
/// that list from `idflow doctor --help-hidden`). Hidden and not private: a hidden option still parses like any
/// other, and `--help-hidden` shows it; a private one would be in no help at all. ArgumentParser completes no
/// hidden option, so `CompletionScript` adds them back, once per script, to every command that takes them.
struct GlobalOptions: ParsableArguments {
    /// The title of the group, as `--help-hidden` and the man pages' tooling find it.
    static let title = "Configuration Options"

    /// The last paragraph of the discussion of every command that takes these options.
    static let helpNote = "The configuration options (--profile, -v, ...) work too: see --help-hidden."

    @Option(
        name: Setting.argumentName(.orgURL),
        help: Setting.argumentHelp(.orgURL))
    var orgURL: String?

    @Option(
        name: Setting.argumentName(.apiToken),
        help: Setting.argumentHelp(.apiToken),
        completion: .file())
    var apiTokenFile: String?

    @Option(
        name: Setting.argumentName(.issuer), help: Setting.argumentHelp(.issuer))
    var issuer: String?

    @Option(
        name: Setting.argumentName(.clientID),
        help: Setting.argumentHelp(.clientID))
    var clientID: String?

    @Option(
        name: Setting.argumentName(.redirectURI),
        help: Setting.argumentHelp(.redirectURI))
    var redirectURI: String?

    @Option(name: Setting.argumentName(.scope), help: Setting.argumentHelp(.scope))
    var scope: String?

    @Option(
        help: ArgumentHelp(
            "A named profile in $XDG_CONFIG_HOME/idflow/config.yaml; default `default` (env IDFLOW_PROFILE).", valueName: "name"),
        completion: .profiles)
    var profile: String?

    @Option(
        name: Setting.argumentName(.stateDir),
        help: Setting.argumentHelp(.stateDir),
        completion: .directory)
    var stateDirectory: String?

    @Flag(name: .shortAndLong, help: "Trace HTTP on stderr, every secret redacted (env IDFLOW_VERBOSE=1).")
    var verbose = false

    @Flag(
        help:
            "Also print each request on stderr as a curl command, secrets as variables (env IDFLOW_CURL=1).")
    var curl = false

    @Option(
        name: .customLong("curl-file"),
        help: ArgumentHelp(
            "Write the curl commands to this file (0600) instead.", valueName: "path"),
        completion: .file())
    var curlFile: String?

    @Flag(
        name: .shortAndLong,
        help:
            "No headlines or progress on stderr; errors, prompts and what you must act on still show (env IDFLOW_QUIET=1)."
    )
    var quiet = false

    @Option(name: Setting.argumentName(.timeout), help: Setting.argumentHelp(.timeout))
    var timeout: Double?

    @Option(
        name: Setting.argumentName(.maxRetries),
        help: Setting.argumentHelp(.maxRetries))
    var maxRetries: Int?

    @Option(
        name: Setting.argumentName(.caFile),
        help: Setting.argumentHelp(.caFile),
        completion: .file())
    var caFile: String?

    @Option(
        name: Setting.argumentName(.clientCert),
        help: Setting.argumentHelp(.clientCert),
        completion: .file())
    var clientCertificate: String?

    @Option(
        name: Setting.argumentName(.clientKey),
        help: Setting.argumentHelp(.clientKey),
        completion: .file())
    var clientKey: String?

    @Option(
        help: ArgumentHelp(
            "Reach every server through this proxy (CONNECT); \"\" for none (env HTTPS_PROXY).",
            valueName: "url"))
    var proxy: String?

    @Option(
        name: Setting.argumentName(.authorizationMode),
        help: Setting.argumentHelp(.authorizationMode))
    var authorizationMode: String?

    @Option(
        name: Setting.argumentName(.serviceClientID),
        help: Setting.argumentHelp(.serviceClientID))
    var serviceClientID: String?

    @Option(
        name: Setting.argumentName(.serviceScopes),
        help: Setting.argumentHelp(.serviceScopes))
    var serviceScopes: String?

    @Option(
        name: Setting.argumentName(.privateKey),
        help: Setting.argumentHelp(.privateKey),
        completion: .file())
    var privateKeyFile: String?

    @Option(
        name: Setting.argumentName(.privateKeyID),
        help: Setting.argumentHelp(.privateKeyID))
    var privateKeyID: String?

    @Flag(
        name: Setting.argumentName(.dpop), help: Setting.argumentHelp(.dpop)
    )
    var dpop = false

    @Flag(help: "Pretty-print the JSON on stdout (the default on a terminal).")
    var pretty = false

    @Flag(help: "Print the JSON on stdout on one line (the default in a pipe).")
    var compact = false

    func validate() throws {
        if pretty && compact { throw ValidationError("--pretty and --compact cannot be used together") }
    }

    var flags: ConfigurationFlags {
        let settings: [Setting.Name: String?] = [
            .orgURL: orgURL, .apiToken: apiTokenFile, .issuer: issuer, .clientID: clientID, .redirectURI: redirectURI,
            .scope: scope, .stateDir: stateDirectory, .timeout: timeout.map { String($0) }, .maxRetries: maxRetries.map { String($0) },
            .caFile: caFile, .clientCert: clientCertificate, .clientKey: clientKey, .authorizationMode: authorizationMode,
            .serviceClientID: serviceClientID, .serviceScopes: serviceScopes, .privateKey: privateKeyFile,
            .privateKeyID: privateKeyID, .dpop: dpop ? "true" : nil,
        ]
        var flags = ConfigurationFlags(settings.compactMapValues { $0 }, profile: profile, proxy: proxy)
        flags.verbose = verbose
        flags.quiet = quiet
        flags.curl = curl
        flags.curlFile = curlFile
        return flags
    }

    /// The options above by name: true for those that take a value. `GlobalArguments` reads it to move them
    /// from before the subcommand; a test checks it against the help text so a new option cannot be missed.
    static let names: [String: Bool] = [
        "--org-url": true, "--api-token-file": true, "--issuer": true, "--client-id": true, "--redirect-uri": true,
        "--scope": true, "--profile": true, "--state-dir": true, "--timeout": true, "--max-retries": true, "--ca-file": true,
        "--client-cert": true, "--client-key": true, "--proxy": true, "--curl-file": true, "--curl": false,
        "--authorization-mode": true, "--service-client-id": true, "--service-scopes": true, "--private-key-file": true,
        "--private-key-id": true, "--dpop": false,
        "-v": false, "--verbose": false, "-q": false, "--quiet": false, "--pretty": false, "--compact": false,
    ]

    /// Whether `argument` is one of these options (also as `--name=value`) and takes a value; nil if it is not one.
    static func takesValue(_ argument: String) -> Bool? {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        guard let takesValue = names[name] else { return nil }
        return argument.contains("=") && !takesValue ? nil : takesValue
    }

    var outputStyle: OutputStyle {
        pretty ? .pretty : compact ? .compact : .automatic()
    }
}
