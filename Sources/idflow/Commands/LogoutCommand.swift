import ArgumentParser
import IdFlowCore

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke the profile's refresh and access tokens and clear its store.")

    @OptionGroup var clientSecret: ClientSecretOption
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await Logout(clientSecret: try clientSecret.secret(context)).run(context)
        }
    }
}
