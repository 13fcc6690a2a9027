import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct SetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password",
        abstract: "Set a new user's first password; get a session token.",
        usage: "idflow set-password [<options>]",
        discussion: """
            Redeems the activation token (Authn PASSWORD_RESET) and sets the password; no API token needed. The \
            token, or the whole link, comes from a file, stdin, env or the option. The password only goes to the \
            configured org: a link on another host is exit 13 unless --org-url names it.

              $ printf '%s' "$PW" \\
                  | idflow set-password --activation-token-file tok.txt --password-stdin

            The password is checked against the published policy first: a weak one exits 3 with the failed rules \
            in `causes`; run again with a better one (a terminal asks again). A used or expired token exits 4.

            \(GlobalOptions.helpNote)
            """)

    @Option(
        name: .customLong("activation-token"),
        help: ArgumentHelp("The activation token (visible in `ps`; prefer the file or env).", valueName: "token"))
    var activationToken: String?

    @Option(
        name: .customLong("activation-token-file"), help: ArgumentHelp("A file holding the activation token.", valueName: "path"),
        completion: .file())
    var activationTokenFile: String?

    @Option(
        name: .customLong("activation-url"),
        help: ArgumentHelp(
            "The activation link, either form (visible in `ps`; prefer the file or stdin).",
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
