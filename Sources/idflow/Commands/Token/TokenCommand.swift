import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract:
            "Get a token; inspect, verify, revoke, exchange one.",
        subcommands: [
            TokenGetCommand.self, TokenInspectCommand.self, TokenVerifyCommand.self, TokenIntrospectCommand.self, TokenRevokeCommand.self,
            TokenExchangeCommand.self,
        ])
}
