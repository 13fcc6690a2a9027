import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct ActivateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Activate a STAGED user; print its activation link.",
        discussion: """
            Sends POST /api/v1/users/{id}/lifecycle/activate?sendEmail=false and reads the user back for its status. \
            With --send-email the server mails the link instead, and the output has no token or URL.

              $ tok=$(idflow activate --user "$uid" | jq -r .activationToken)

            An already active user gives E0000016 (exit 3); an unknown user exits 5. A PROVISIONED user whose token \
            was lost or expired gets a new one with --reactivate (the old one stops working):

              $ tok=$(idflow activate --user "$uid" --reactivate \\
                  | jq -r .activationToken)

            \(GlobalOptions.helpNote)
            """)

    @Option(help: ArgumentHelp("The user's id (00u...) or login.", valueName: "id-or-login"))
    var user: String

    @Flag(name: .customLong("send-email"), help: "Let the server e-mail the activation link instead of printing it.")
    var sendEmail = false

    @Flag(help: "Issue a PROVISIONED user (activated, no password yet) a new activation token; the old one stops working.")
    var reactivate = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await ActivateUser(user: user, sendEmail: sendEmail, reactivate: reactivate).run(context)
        }
    }
}
