import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasskeyShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one kept passkey.",
        usage: "idflow passkey show <id> [<options>]",
        discussion: GlobalOptions.helpNote)

    @Argument(help: ArgumentHelp("See `idflow passkey list`.", valueName: "id"))
    var passkeyId: String

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try ShowPasskey(id: passkeyId).run(context)
        }
    }
}
