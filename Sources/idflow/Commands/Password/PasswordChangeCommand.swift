import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasswordChangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change",
        abstract: "Change the signed-in user's password, giving the old one.",
        usage: "idflow password change [<options>]",
        discussion: """
            Uses the profile's stored access token at {org}/idp/myaccount/password/change-password. The token must \
            carry okta.myAccount.password.manage: log in with --scope "openid okta.myAccount.password.manage"; \
            without it, exit 4. The current password comes from --password-stdin, --password-file or \
            IDFLOW_PASSWORD, the new one from --new-password-stdin, --new-password-file or IDFLOW_NEW_PASSWORD; at \
            a terminal idflow asks (the new one twice). The new password is checked against the rules the server \
            publishes before it is sent: a weak one, or one the history refuses, exits 3 with every rule in "causes".

              $ idflow password change --password-file old.txt \\
                  --new-password-file new.txt

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup(title: "Current password") var current: PasswordOptions

    @OptionGroup var newPassword: NewPasswordOptions

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if current.passwordStdin && newPassword.newPasswordStdin {
            throw ValidationError("--password-stdin and --new-password-stdin cannot both read standard input; put one in a file")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await PasswordChange(oldPassword: try current.read(context), newPassword: try newPassword.read(context)).run(context)
        }
    }
}
