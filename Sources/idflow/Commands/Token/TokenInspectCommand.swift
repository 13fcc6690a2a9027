import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a JWT's header and claims and say when it expires. Never checks the signature (see `token verify`).",
        discussion: """
            Prints the header, the claims and the times (expiresAt, expiresInSeconds, issuedAt, ...), and under \
            "serverClock" the same by the issuer's clock with its skew (null with --offline, for another issuer's \
            token, or when the issuer does not answer within 3 s). An opaque refresh token is described as such: \
            ask the issuer with `token introspect --type refresh`.

              $ idflow token inspect - <<<"$jwt" | jq .claims
              $ idflow token inspect --type id | jq .expiresInSeconds

            \(GlobalOptions.helpNote)
            """)

    @Argument(help: ArgumentHelp("The JWT, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
    var token: String?

    @Option(
        help:
            "Which stored token to use when none is given: access (the default), refresh or id. A refresh token that is not a JWT (Okta's are opaque) is described, not decoded."
    )
    var type: TokenKind?

    @Flag(help: "Do not ask the issuer for its clock: this machine's only.")
    var offline = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await InspectToken(token: TokenInput(argument: token), kind: type ?? .access, offline: offline).run(context)
        }
    }
}
