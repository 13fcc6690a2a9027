import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasskeyDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Forget a kept passkey.",
        usage: "idflow passkey delete <id> [<options>]",
        discussion: GlobalOptions.helpNote)

    @Argument(help: ArgumentHelp("See `idflow passkey list`.", valueName: "id"))
    var passkeyId: String

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try DeletePasskey(id: passkeyId).run(context)
        }
    }
}
