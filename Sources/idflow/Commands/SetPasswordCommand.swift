import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct SetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password",
        abstract: "Set a new user's first password; print a session token.",
        usage: "idflow set-password [<options>]",
        discussion: """
            Redeems the activation token at POST /api/v1/authn (PASSWORD_RESET), then sets the password at \
            /api/v1/authn/credentials/reset_password. No API token is needed. The password comes from stdin, a file, \
            or IDFLOW_PASSWORD; the token from --activation-token-file, --activation-token or IDFLOW_ACTIVATION_TOKEN, \
            or the whole link (either form) from --activation-url-file, --activation-url-stdin, --activation-url or \
            IDFLOW_ACTIVATION_URL. The password only ever goes to the configured org: a link on another host is \
            refused (exit 13) unless --org-url names that host.

              $ printf '%s' "$PW" \\
                  | idflow set-password --activation-token-file tok.txt --password-stdin

            The password is checked against the policy the server publishes before it is sent: a weak one exits 3 \
            with every failed rule in `causes` (so does one the server refuses for a rule it does not publish). The \
            activation stays open for a few minutes: run the command again with the same token and a better password \
            (at a terminal, idflow asks again). A used or expired token exits 4.

            \(GlobalOptions.helpNote)
            """)

    @Option(
        name: .customLong("activation-token"),
        help: ArgumentHelp("The activation token from `idflow activate` (visible in `ps`; prefer the file or env).", valueName: "token"))
    var activationToken: String?

    @Option(
        name: .customLong("activation-token-file"), help: ArgumentHelp("A file holding the activation token.", valueName: "path"),
        completion: .file())
    var activationTokenFile: String?

    @Option(
        name: .customLong("activation-url"),
        help: ArgumentHelp(
            "The activation link ({org}/welcome/{token} or {org}/tokens/{token}/verify); visible in `ps`, prefer the file or stdin.",
            valueName: "url"))
    var activationURL: String?

    @Option(
        name: .customLong("activation-url-file"), help: ArgumentHelp("A file holding the activation link.", valueName: "path"),
        completion: .file())
    var activationURLFile: String?

    @Flag(name: .customLong("activation-url-stdin"), help: "Read the activation link from standard input.")
    var activationURLStdin = false

    @OptionGroup var passwordOptions: PasswordOptions

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if activationURLStdin && passwordOptions.passwordStdin {
            throw ValidationError("--activation-url-stdin and --password-stdin cannot both read standard input; put one in a file")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let activation = SetPassword.ActivationInput(
                url: activationURL, urlFile: activationURLFile, urlStdin: activationURLStdin, token: activationToken,
                tokenFile: activationTokenFile)
            let flow = try SetPassword(
                activation: activation, password: try passwordOptions.read(context, confirming: true), secrets: context.secrets)
            return try await flow.run(context)
        }
    }
}
