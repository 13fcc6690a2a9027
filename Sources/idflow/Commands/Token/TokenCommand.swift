import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract:
            "Get a token for scripts; inspect, verify, revoke one.",
        subcommands: [
            TokenGetCommand.self, TokenInspectCommand.self, TokenVerifyCommand.self, TokenIntrospectCommand.self, TokenRevokeCommand.self,
            TokenExchangeCommand.self,
        ])
}
