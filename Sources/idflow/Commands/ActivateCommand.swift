import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct ActivateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Activate a STAGED user; print its activation link.",
        discussion: """
            Activates with sendEmail=false and prints the token and link (with --send-email the server mails them).

              $ tok=$(idflow activate --user "$uid" | jq -r .activationToken)

            An active user: exit 3; unknown: exit 5. --reactivate gives a PROVISIONED user a new token:

              $ tok=$(idflow activate --user "$uid" --reactivate \\
                  | jq -r .activationToken)

            \(GlobalOptions.helpNote)
            """)

    @Option(help: ArgumentHelp("The user's id (00u...) or login.", valueName: "id-or-login"))
    var user: String

    @Flag(name: .customLong("send-email"), help: "Let the server e-mail the activation link instead of printing it.")
    var sendEmail = false

    @Flag(help: "A new activation token for a PROVISIONED user; the old one stops working.")
    var reactivate = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await ActivateUser(user: user, sendEmail: sendEmail, reactivate: reactivate).run(context)
        }
    }
}
