import ArgumentParser
import Foundation
import IdFlowCore

struct SetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password",
        abstract: "Set a new user's first password with the activation token; prints a single-use session token (ACTIVE).",
        discussion: """
            Redeems the activation token at POST /api/v1/authn (PASSWORD_RESET), then sets the password at \
            /api/v1/authn/credentials/reset_password. No API token is needed. The password comes from stdin, a file, \
            or IDFLOW_PASSWORD; the token from --activation-token, --activation-url (either link form), \
            --activation-token-file or IDFLOW_ACTIVATION_TOKEN.

              $ printf '%s' "$PW" | idflow set-password --activation-token "$tok" --password-stdin

            A password the policy rejects exits 3 with every failed rule in `causes`; a used or expired token exits 4.
            """)

    @Option(
        name: .customLong("activation-token"),
        help: ArgumentHelp("The activation token from `idflow activate` (visible in `ps`; prefer the file or env).", valueName: "token"))
    var activationToken: String?

    @Option(name: .customLong("activation-token-file"), help: ArgumentHelp("A file holding the activation token.", valueName: "path"))
    var activationTokenFile: String?

    @Option(
        name: .customLong("activation-url"),
        help: ArgumentHelp(
            "The activation link ({org}/welcome/{token} or {org}/tokens/{token}/verify); its org is used when none is configured.",
            valueName: "url"))
    var activationURL: String?

    @OptionGroup var passwordOptions: PasswordOptions

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let flow = try SetPassword(
                activationURL: activationURL, activationTokenFile: activationTokenFile, activationToken: activationToken,
                password: try passwordOptions.read(context), secrets: context.secrets)
            return try await flow.run(context)
        }
    }
}
