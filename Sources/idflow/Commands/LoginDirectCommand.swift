import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LoginDirectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-direct",
        abstract: "Log in without a browser (Okta Direct Authentication).",
        usage: """
            idflow login-direct --username <login> [<options>]
              idflow login-direct --webauthn [--username <login>]
              idflow login-direct --resume <transaction> --binding-code-stdin
            """,
        discussion: """
            Signs in as Okta's native apps do, with no browser: a one-time code, a push (the number of a number \
            challenge is shown on stderr and printed in "binding"), an SMS or voice code, a passkey kept \
            here (--webauthn; no --username: a discoverable one), or a password and then the second factor \
            --mfa names. The ID token is validated and the tokens printed and saved as \
            login-pkce's are. A grant the app may not use: exit 4, naming it. A push denied: exit 8; expired: \
            exit 9. No passkey kept for the org: exit 5; options naming another site: exit \
            13. A second factor no script named: exit 3. An SMS or voice code no \
            script gave: exit 3, the sign-in kept for --resume (its "transaction").

              $ idflow login-direct --username jo@example.com \\
                  --totp-secret-file seed | jq -r .access_token
              $ idflow login-direct --username jo@example.com --oob push

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var way: DirectLoginOptions

    @Option(
        name: .customLong("acr-values"),
        help: ArgumentHelp("Authentication context classes to ask for (space-separated).", valueName: "values"))
    var acrValues: String?

    @Flag(name: .customLong("no-store"), help: "Print the tokens without saving them.")
    var noStore = false

    @OptionGroup var deviceSSO: DeviceSSOOption
    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let login = try way.login(acrValues: acrValues, clientSecret: try clientSecret.secret(context), store: !noStore)
            return try await deviceSSO.run(context, tokens: \.tokens) { context throws(IdFlowError) in try await login.run(context) }
        }
    }
}
