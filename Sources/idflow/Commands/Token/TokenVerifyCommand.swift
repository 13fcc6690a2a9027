import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a JWT's signature against the issuer's JWKS, its iss and expiry (and aud with --audience); exit 13 when it fails.",
        discussion: GlobalOptions.helpNote)

    @Argument(help: ArgumentHelp("The JWT, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
    var token: String?

    @Option(help: "Which stored token to use when none is given: access (the default), refresh or id.")
    var type: TokenKind?

    @Option(
        help: ArgumentHelp(
            "Require this audience (e.g. api://default for an Okta access token, the client id for an ID token).", valueName: "aud"))
    var audience: String?

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await VerifyToken(token: TokenInput(argument: token), kind: type ?? .access, audience: audience).run(context)
        }
    }
}
