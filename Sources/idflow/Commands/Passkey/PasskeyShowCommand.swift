import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasskeyShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one passkey kept on this machine (never its key).",
        usage: "idflow passkey show <passkey-id> [<options>]",
        discussion: """
            Exits 5 when no passkey here has that id.

            \(GlobalOptions.helpNote)
            """)

    @Argument(help: ArgumentHelp("The credential id (see `idflow passkey list`).", valueName: "passkey-id"))
    var passkeyId: String

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try ShowPasskey(id: passkeyId).run(context)
        }
    }
}
