import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a token (RFC 7009); revoking a refresh token ends its whole family on Okta.",
        usage: "idflow token revoke [<token>] [<options>]", discussion: GlobalOptions.helpNote)

    @Argument(help: ArgumentHelp("The token, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
    var token: String?

    @Option(help: "Which token it is (and which stored one to use): access or refresh (the default).")
    var type: TokenKind?

    @OptionGroup var clientSecret: ClientSecretOption
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await RevokeToken(
                token: TokenInput(argument: token), kind: type ?? .refresh, clientSecret: try clientSecret.secret(context)
            ).run(
                context)
        }
    }
}
