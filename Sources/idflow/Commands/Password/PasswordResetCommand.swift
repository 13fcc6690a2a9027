import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct PasswordResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Recover a forgotten password with a factor other than the password.",
        usage: "idflow password reset --username <login> [<options>]",
        discussion: """
            Proves who the user is with Direct Authentication (intent=recovery; a code, push, SMS or voice, as \
            login-direct does), then sets the new password with the MyAccount API; the token is never stored. The \
            password is checked against the published rules first (exit 3). A factor recovery does not allow: exit \
            8; a grant the app may not use: exit 4.

              $ idflow password reset --username jo@example.com \\
                  --totp-secret-file seed --new-password-file new.txt

            \(GlobalOptions.helpNote)
            """)

    @Option(help: ArgumentHelp("The user's login (login_hint).", valueName: "login"))
    var username: String

    @OptionGroup var factor: DirectFactorOptions

    @OptionGroup var newPassword: NewPasswordOptions

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        guard [factor.otpStdin, factor.totpSecretFile != nil, factor.oob != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("choose one factor: --otp-stdin, --totp-secret-file or --oob push|sms|voice (not the password)")
        }
        if factor.bindingCodeStdin && ![.sms, .voice].contains(factor.oob) {
            throw ValidationError("--binding-code-stdin goes with --oob sms|voice")
        }
        if [factor.otpStdin, factor.bindingCodeStdin, newPassword.newPasswordStdin].filter({ $0 }).count > 1 {
            throw ValidationError("only one secret can come from standard input; read the new password from a file (--new-password-file)")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let proof: PasswordRecovery.Factor = if let oob = factor.oob { .oob(oob) } else { .otp(factor.code ?? .given(.standardInput)) }
            return try await PasswordRecovery(
                username: username, factor: proof, bindingCode: factor.bindingCode,
                newPassword: try newPassword.read(context), clientSecret: try clientSecret.secret(context)
            ).run(context)
        }
    }
}
