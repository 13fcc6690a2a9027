import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasskeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the kept passkeys.",
        discussion: GlobalOptions.helpNote)

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try ListPasskeys().run(context)
        }
    }
}
