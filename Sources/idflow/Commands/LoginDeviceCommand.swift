import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LoginDeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-device",
        abstract: "Log in without a browser (device grant, RFC 8628).",
        usage: "idflow login-device [<options>]",
        discussion: """
            Shows the page and the code on stderr (also as a JSON line with user_code and verification_uri), then \
            polls until the code is approved on another device. The tokens are validated, printed and saved as \
            login-pkce's are. Denied: exit 8; expired or past --device-timeout: exit 9; no device grant: exit 64; \
            Ctrl-C: exit 130, nothing stored.

              $ idflow login-device | jq -r .id_token_claims.sub
              $ idflow login-device 2>&1 >tokens.json \\
                  | grep --line-buffered user_code

            \(GlobalOptions.helpNote)
            """)

    @Flag(help: "Also open the verification link with $BROWSER or xdg-open.")
    var open = false

    @Option(
        name: .customLong("device-timeout"),
        help: ArgumentHelp("Seconds to wait for the approval; default: the code's life.", valueName: "seconds"))
    var deviceTimeout: Int?

    @OptionGroup var deviceSSO: DeviceSSOOption

    @Flag(name: .customLong("no-store"), help: "Print the tokens without saving them.")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if let deviceTimeout, deviceTimeout <= 0 { throw ValidationError("--device-timeout must be positive") }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let login = LoginDevice(
                clientSecret: try clientSecret.secret(context), store: !noStore, timeout: deviceTimeout.map { .seconds($0) },
                opener: open ? BrowserOpener(environment: context.secrets.environment) : nil)
            return try await deviceSSO.run(context, tokens: { $0 }) { context throws(IdFlowError) in try await login.run(context) }
        }
    }
}
