import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// The configuration flags every subcommand accepts (CONTRACT.md, "Configuration").
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("org-url"),
        help: ArgumentHelp("The Okta org, e.g. https://dev-123.okta.com (env OKTA_CLIENT_ORGURL).", valueName: "url"))
    var orgURL: String?

    @Option(
        name: .customLong("api-token-file"),
        help: ArgumentHelp(
            "A file holding the management API token, sent as `SSWS` (env OKTA_CLIENT_TOKEN holds the token itself).", valueName: "path"),
        completion: .file())
    var apiTokenFile: String?

    @Option(
        help: ArgumentHelp(
            "The authorization server; default {org}/oauth2/default (env IDFLOW_ISSUER, or Okta's OKTA_OAUTH2_ISSUER).", valueName: "url"))
    var issuer: String?

    @Option(
        name: .customLong("client-id"),
        help: ArgumentHelp("The OAuth client (native app) id (env IDFLOW_CLIENT_ID, or Okta's OKTA_OAUTH2_CLIENTID).", valueName: "id"))
    var clientID: String?

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp("The registered redirect URI (env IDFLOW_REDIRECT_URI, or Okta's OKTA_OAUTH2_REDIRECTURI).", valueName: "uri"))
    var redirectURI: String?

    @Option(help: ArgumentHelp("OAuth scopes; default \"openid profile email offline_access\" (env IDFLOW_SCOPE).", valueName: "scopes"))
    var scope: String?

    @Option(
        help: ArgumentHelp(
            "A named profile in $XDG_CONFIG_HOME/idflow/config.yaml; default `default` (env IDFLOW_PROFILE).", valueName: "name"),
        completion: .profiles)
    var profile: String?

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp("Where tokens and device keys live; default $XDG_STATE_HOME/idflow (env IDFLOW_STATE_DIR).", valueName: "dir"),
        completion: .directory)
    var stateDirectory: String?

    @Flag(name: .shortAndLong, help: "Trace HTTP on stderr, every secret redacted (env IDFLOW_VERBOSE=1).")
    var verbose = false

    @Flag(
        help:
            "Also write each HTTP request to stderr as a runnable curl command, secrets as shell variables (env IDFLOW_CURL=1).")
    var curl = false

    @Option(
        name: .customLong("curl-file"),
        help: ArgumentHelp(
            "Write the curl script of the run to this file instead (created 0600, written as the run goes).", valueName: "path"),
        completion: .file())
    var curlFile: String?

    @Flag(
        name: .shortAndLong,
        help:
            "No headlines or progress on stderr; errors, warnings, prompts and what you must act on (a URL, a code) still show (env IDFLOW_QUIET=1)."
    )
    var quiet = false

    @Option(help: ArgumentHelp("Per-request timeout in seconds; default 30 (env IDFLOW_TIMEOUT).", valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .customLong("max-retries"),
        help: ArgumentHelp("Retries for 429, 503 and network errors on safe requests; default 3 (env IDFLOW_MAX_RETRIES).", valueName: "n"))
    var maxRetries: Int?

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Trust the CA certificates in this PEM bundle besides the system's (env IDFLOW_CA_FILE; SSL_CERT_FILE and SSL_CERT_DIR are honoured too). Verification is never switched off.",
            valueName: "path"),
        completion: .file())
    var caFile: String?

    @Option(
        name: .customLong("client-cert"),
        help: ArgumentHelp(
            "Present this PEM TLS client certificate (mutual-TLS gateways, RFC 8705 clients; env IDFLOW_CLIENT_CERT).", valueName: "path"),
        completion: .file())
    var clientCertificate: String?

    @Option(
        name: .customLong("client-key"),
        help: ArgumentHelp(
            "The client certificate's PEM private key, refused when others can read it (env IDFLOW_CLIENT_KEY).", valueName: "path"),
        completion: .file())
    var clientKey: String?

    @Option(
        help: ArgumentHelp(
            "Reach every server through this proxy (CONNECT), e.g. http://proxy:3128; \"\" for none (env HTTPS_PROXY, NO_PROXY; okta.yaml okta.client.proxy).",
            valueName: "url"))
    var proxy: String?

    @Option(
        name: .customLong("authorization-mode"),
        help: ArgumentHelp(
            "How management calls authenticate: SSWS (the API token, default) or PrivateKey (an OAuth 2.0 service app; env OKTA_CLIENT_AUTHORIZATIONMODE).",
            valueName: "mode"))
    var authorizationMode: String?

    @Option(
        name: .customLong("service-client-id"),
        help: ArgumentHelp("The service app's client id in PrivateKey mode (env OKTA_CLIENT_CLIENTID).", valueName: "id"))
    var serviceClientID: String?

    @Option(
        name: .customLong("service-scopes"),
        help: ArgumentHelp(
            "Scopes the service app asks for; default \"okta.users.read okta.users.manage\" (env OKTA_CLIENT_SCOPES, comma-separated).",
            valueName: "scopes"))
    var serviceScopes: String?

    @Option(
        name: .customLong("private-key-file"),
        help: ArgumentHelp(
            "The service app's PEM private key (RS256 or ES256), refused when others can read it (env OKTA_CLIENT_PRIVATEKEY: a path or the PEM).",
            valueName: "path"),
        completion: .file())
    var privateKeyFile: String?

    @Option(
        name: .customLong("private-key-id"),
        help: ArgumentHelp("The key id (kid) put in the client assertion's header (env OKTA_CLIENT_KID).", valueName: "kid"))
    var privateKeyID: String?

    @Flag(
        help:
            "DPoP-bind the tokens this command gets (RFC 9449): the service app's, login-client's, or a login's; each request then carries a proof (env OKTA_CLIENT_DPOPENABLED=true for the service app)."
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
        var flags = ConfigurationFlags(
            orgURL: orgURL, apiTokenFile: apiTokenFile, issuer: issuer, clientID: clientID, redirectURI: redirectURI, scope: scope,
            profile: profile, stateDirectory: stateDirectory, verbose: verbose, timeoutSeconds: timeout, maxRetries: maxRetries,
            quiet: quiet, caFile: caFile, clientCertificate: clientCertificate, clientKey: clientKey, proxy: proxy,
            curl: curl, curlFile: curlFile)
        flags.authorizationMode = authorizationMode
        flags.serviceClientID = serviceClientID
        flags.serviceScopes = serviceScopes
        flags.privateKeyFile = privateKeyFile
        flags.privateKeyID = privateKeyID
        flags.dpop = dpop
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
