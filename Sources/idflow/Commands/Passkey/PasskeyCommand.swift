import ArgumentParser

struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "List, show, delete kept passkeys.",
        subcommands: [PasskeyListCommand.self, PasskeyShowCommand.self, PasskeyDeleteCommand.self])
}
