import ArgumentParser

struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Change or recover a password (the MyAccount API).",
        subcommands: [PasswordChangeCommand.self, PasswordResetCommand.self])
}
