import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LoginJWTBearerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-jwt-bearer",
        abstract: "Log in with a signed assertion (JWT bearer, RFC 7523).",
        usage: "idflow login-jwt-bearer --sign-with <key> --sub <user> [<options>]",
        discussion: """
            Sends the assertion in --assertion-file, or mints one: iss is --client-id (the service app's by \
            default), sub --sub, aud --aud (default: the token URL), five minutes of life, a fresh jti. The tokens \
            are validated, printed and saved as a login's. A refused assertion: exit 4.

              $ idflow login-jwt-bearer --sign-with key.pem --sub alice@example.com

            \(GlobalOptions.helpNote)
            """)

    @Option(
        name: .customLong("assertion-file"), help: ArgumentHelp("A signed assertion, in a file.", valueName: "path"),
        completion: .file())
    var assertionFile: String?

    @Option(
        name: .customLong("sign-with"), help: ArgumentHelp("Mint the assertion with this PEM key.", valueName: "key"),
        completion: .file())
    var signWith: String?

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The kid of --sign-with's key.", valueName: "kid"))
    var keyID: String?

    @Option(help: ArgumentHelp("The minted assertion's subject (a user).", valueName: "user"))
    var sub: String?

    @Option(help: ArgumentHelp("The minted assertion's audience.", valueName: "url"))
    var aud: String?

    @Flag(name: .customLong("no-store"), help: "Print the tokens without saving them.")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        switch (assertionFile, signWith) {
        case (nil, nil): throw ValidationError("pass --assertion-file, or --sign-with KEY --sub USER")
        case (.some, .some): throw ValidationError("--assertion-file and --sign-with cannot be used together")
        case (nil, .some) where sub == nil: throw ValidationError("--sign-with needs --sub")
        case (.some, nil) where sub != nil || aud != nil || keyID != nil:
            throw ValidationError("--sub, --aud and --key-id go with --sign-with")
        default: break
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let assertion: JWTBearerLogin.Assertion =
                if let assertionFile { .file(assertionFile) } else {
                    .mint(keyFile: signWith ?? "", keyID: keyID, subject: sub ?? "", audience: aud)
                }
            return try await JWTBearerLogin(
                assertion: assertion, clientID: global.clientID, clientSecret: try clientSecret.secret(context), store: !noStore
            ).run(context)
        }
    }
}
