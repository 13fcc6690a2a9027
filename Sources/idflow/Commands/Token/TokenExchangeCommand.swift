import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenExchangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exchange", abstract: "Trade a token for another (token exchange, RFC 8693).",
        usage: "idflow token exchange --subject-from <profile>[:<kind>] [<options>]",
        discussion: """
            Against any provider; the client proves itself as login-client's does (--client-secret-file, \
            --private-key-file, or --client-cert for mTLS). Types: access, id, refresh, jwt, device-secret, \
            interclient or a URN. Prints the response with expires_at; saves it only with --store-as.

              $ idflow token exchange --subject-from ci:access --audience api://deploy

            \(GlobalOptions.helpNote)
            """)

    @Option(
        name: .customLong("subject-token-file"), help: ArgumentHelp("The subject token, in a file.", valueName: "path"),
        completion: .file())
    var subjectTokenFile: String?

    @Option(
        name: .customLong("subject-from"),
        help: ArgumentHelp("A stored login's token: PROFILE[:access|id|refresh].", valueName: "profile"))
    var subjectFrom: String?

    @Option(name: .customLong("subject-token-type"), help: ArgumentHelp("The subject token's type.", valueName: "type"))
    var subjectTokenType: String?

    @Option(
        name: .customLong("actor-token-file"), help: ArgumentHelp("An actor token, in a file.", valueName: "path"),
        completion: .file())
    var actorTokenFile: String?

    @Option(name: .customLong("actor-token-type"), help: ArgumentHelp("The actor token's type.", valueName: "type"))
    var actorTokenType: String?

    @Option(help: ArgumentHelp("Where the token will be used (logical name).", valueName: "audience"))
    var audience: String?

    @Option(help: ArgumentHelp("Where the token will be used (URI; repeatable).", valueName: "uri"))
    var resource: [String] = []

    @Option(
        name: .customLong("requested-token-type"), help: ArgumentHelp("The type of token wanted.", valueName: "type"))
    var requestedTokenType: String?

    @Option(name: .customLong("store-as"), help: ArgumentHelp("Save the result for this profile.", valueName: "profile"))
    var storeAs: String?

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        guard (subjectTokenFile == nil) != (subjectFrom == nil) else {
            throw ValidationError("pass one of --subject-token-file and --subject-from")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let secret = try clientSecret.secret(context, unlessKey: global.privateKeyFile)
            return try await TokenExchange(
                subject: try subject(), subjectTokenType: subjectTokenType, actorTokenFile: actorTokenFile, actorTokenType: actorTokenType,
                requestedTokenType: requestedTokenType, audience: audience, resources: resource, clientID: global.clientID,
                clientSecret: secret, storeAs: storeAs
            ).run(context)
        }
    }

    func subject() throws(IdFlowError) -> TokenExchange.Subject {
        if let subjectTokenFile { return .file(subjectTokenFile) }
        let parts = (subjectFrom ?? "").split(separator: ":", maxSplits: 1).map(String.init)
        let kind: TokenKind
        switch parts.count > 1 ? parts[1] : "access" {
        case "access": kind = .access
        case "id": kind = .id
        case "refresh": kind = .refresh
        default: throw .invalidInput("--subject-from takes PROFILE, PROFILE:access, PROFILE:id or PROFILE:refresh")
        }
        return .profile(parts.first ?? "", kind)
    }
}
