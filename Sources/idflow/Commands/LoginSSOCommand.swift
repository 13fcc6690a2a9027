import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LoginSSOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-sso",
        abstract: "Log in another app from a stored sign-in (Native SSO).",
        usage: "idflow login-sso --from <profile> --client-id <id> [<options>]",
        discussion: """
            Trades the ID token and device secret that `login-device --device-sso` stored for --from's profile for \
            this app's tokens, with no prompt; they are validated and saved for --profile. An expired ID token still \
            works while its session lives. An ended session or revoked secret: exit 4, sign in again.

              $ idflow login-sso --from app-a --client-id 0oaB... --profile app-b

            \(GlobalOptions.helpNote)
            """)

    @Option(help: ArgumentHelp("The profile whose login holds the device secret.", valueName: "profile"))
    var from: String

    @Option(help: ArgumentHelp("The audience; default: the server's (api://default).", valueName: "audience"))
    var audience: String?

    @Flag(name: .customLong("no-store"), help: "Print the tokens without saving them.")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            guard let clientID = global.clientID, !clientID.isEmpty else {
                throw IdFlowError.invalidInput("login-sso needs --client-id of the app to sign in", hint: "pass --client-id ID")
            }
            return try await NativeSSOLogin(
                fromProfile: from, clientID: clientID, clientSecret: try clientSecret.secret(context), audience: audience, store: !noStore
            ).run(context)
        }
    }
}
