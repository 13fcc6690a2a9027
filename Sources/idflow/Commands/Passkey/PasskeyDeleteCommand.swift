import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasskeyDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Forget a passkey on this machine; the org keeps its enrolment.",
        usage: "idflow passkey delete <passkey-id> [<options>]",
        discussion: """
            Exits 5 when no passkey here has that id.

              $ idflow passkey delete "$PASSKEY_ID" | jq .deleted

            \(GlobalOptions.helpNote)
            """)

    @Argument(help: ArgumentHelp("The credential id (see `idflow passkey list`).", valueName: "passkey-id"))
    var passkeyId: String

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try DeletePasskey(id: passkeyId).run(context)
        }
    }
}
