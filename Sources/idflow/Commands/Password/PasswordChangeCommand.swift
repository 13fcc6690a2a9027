import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasswordChangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change",
        abstract: "Change the signed-in user's password, giving the old one.",
        usage: "idflow password change [<options>]",
        discussion: """
            Uses the profile's access token, which needs okta.myAccount.password.manage (else exit 4). Both \
            passwords come from stdin, a file or env, or at a terminal. The new one is checked against the \
            published rules first: a weak one, or one the history refuses, exits 3 with the rules in "causes".

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
