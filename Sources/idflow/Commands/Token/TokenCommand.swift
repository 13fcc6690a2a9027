import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract:
            "Get a fresh token for scripts and kubectl, or inspect, verify, introspect or revoke one (given, `-` for stdin, or stored).",
        subcommands: [
            TokenGetCommand.self, TokenInspectCommand.self, TokenVerifyCommand.self, TokenIntrospectCommand.self, TokenRevokeCommand.self,
        ])
}
