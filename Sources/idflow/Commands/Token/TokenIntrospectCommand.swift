import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenIntrospectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "introspect", abstract: "Ask the authorization server whether a token is active (RFC 7662).",
        usage: "idflow token introspect [<token>] [<options>]", discussion: GlobalOptions.helpNote)

    @Argument(help: ArgumentHelp("The token, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
    var token: String?

    @Option(help: "Which token it is (and which stored one to use): access (the default), refresh or id.")
    var type: TokenKind?

    @OptionGroup var clientSecret: ClientSecretOption
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await IntrospectToken(
                token: TokenInput(argument: token), kind: type ?? .access, clientSecret: try clientSecret.secret(context)
            ).run(
                context)
        }
    }
}
