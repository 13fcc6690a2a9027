import ArgumentParser
import IdFlowCore

struct TokenInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a JWT's header and claims and say when it expires. Never checks the signature (see `token verify`).",
        discussion: "  $ idflow token inspect - <<<\"$jwt\" | jq .claims\n  $ idflow token inspect --type id")

    @Argument(help: ArgumentHelp("The JWT, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
    var token: String?

    @Option(help: "Which stored token to use when none is given: access, refresh or id.")
    var type: TokenKind = .access

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try InspectToken(token: TokenInput(argument: token), kind: type).run(context)
        }
    }
}
