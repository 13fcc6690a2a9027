import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// How `login-pkce` gets its authorization code, other than the embedded sign-in: a session token, a username
/// and password through Authn, a browser, or a pasted redirect.
struct LoginMethodOptions: ParsableArguments {
    @Option(
        name: .customLong("session-token"),
        help: ArgumentHelp(
            "An Okta session token (single use); visible in `ps`.", valueName: "token"))
    var sessionToken: String?

    @Flag(name: .customLong("session-token-stdin"), help: "Read the session token from standard input.")
    var sessionTokenStdin = false

    @Option(help: ArgumentHelp("Sign in as this user (Okta primary authentication).", valueName: "username"))
    var username: String?

    @OptionGroup var passwordOptions: PasswordOptions

    @Flag(help: "Sign in in a browser, redirected to 127.0.0.1.")
    var browser = false

    @Option(
        help: ArgumentHelp(
            "The loopback port for --browser; default: the redirect URI's, else any free one.",
            valueName: "port"))
    var port: UInt16?

    @Option(
        name: .customLong("browser-timeout"),
        help: ArgumentHelp("Seconds to wait for it (exit 9 after).", valueName: "seconds"))
    var browserTimeout: Int = 300

    @Flag(help: "Print the URL; read the redirect URL (or code) back.")
    var manual = false

    /// The methods given (the session token counts once, from either flag).
    var given: [String] {
        [
            ("--session-token", sessionToken != nil || sessionTokenStdin), ("--username", username != nil), ("--browser", browser),
            ("--manual", manual),
        ].filter(\.1).map(\.0)
    }

    /// The combinations within the chosen method that the flags rule out.
    func validateCombinations(embedded: Bool = false) throws {
        if sessionToken != nil && sessionTokenStdin {
            throw ValidationError("--session-token and --session-token-stdin cannot be used together")
        }
        if username == nil && passwordOptions.given && !embedded {
            throw ValidationError("a password is only used with --username or --embedded")
        }
        guard browserTimeout > 0 else { throw ValidationError("--browser-timeout must be positive") }
    }

    /// The method the flags chose, with its secret read.
    func chosen(_ context: IdFlowContext) throws(IdFlowError) -> LoginPKCE.Method {
        if let username {
            return .credentials(username: username, password: try passwordOptions.read(context))
        } else if browser {
            return .browser(port: port, timeout: .seconds(browserTimeout), opener: BrowserOpener(environment: context.secrets.environment))
        } else if manual {
            return .manual(readLine: context.console.readLine)
        }
        let source: SecretSource = sessionTokenStdin ? .standardInput : .argument(sessionToken ?? "")
        return .sessionToken(try context.secrets.read("session token", from: source))
    }
}
