import ArgumentParser
import IdFlowCore

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Inspect, verify, introspect or revoke a token (given, `-` for stdin, or the profile's stored one).",
        subcommands: [TokenInspectCommand.self, TokenVerifyCommand.self, TokenIntrospectCommand.self, TokenRevokeCommand.self])
}
