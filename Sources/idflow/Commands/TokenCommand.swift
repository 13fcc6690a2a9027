import ArgumentParser
import IdFlowCore

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Inspect, verify, introspect or revoke a token (given, `-` for stdin, or the profile's stored one).",
        subcommands: [Inspect.self, Verify.self, Introspect.self, Revoke.self])

    struct Inspect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
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

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a JWT's signature against the issuer's JWKS, its iss and expiry (and aud with --audience); exit 13 when it fails.")

        @Argument(help: ArgumentHelp("The JWT, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
        var token: String?

        @Option(help: "Which stored token to use when none is given: access, refresh or id.")
        var type: TokenKind = .access

        @Option(help: ArgumentHelp("Require this audience (e.g. api://default for an Okta access token, the client id for an ID token).", valueName: "aud"))
        var audience: String?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await CommandRunner.run(global) { context throws(IdFlowError) in
                try await VerifyToken(token: TokenInput(argument: token), kind: type, audience: audience).run(context)
            }
        }
    }

    struct Introspect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the authorization server whether a token is active (RFC 7662).")

        @Argument(help: ArgumentHelp("The token, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
        var token: String?

        @Option(help: "Which token it is (and which stored one to use): access, refresh or id.")
        var type: TokenKind = .access

        @OptionGroup var clientSecret: ClientSecretOption
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await CommandRunner.run(global) { context throws(IdFlowError) in
                try await IntrospectToken(token: TokenInput(argument: token), kind: type, clientSecret: try clientSecret.secret(context)).run(context)
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token (RFC 7009); revoking a refresh token ends its whole family on Okta.")

        @Argument(help: ArgumentHelp("The token, `-` to read it from stdin, or nothing for the stored one.", valueName: "token"))
        var token: String?

        @Option(help: "Which token it is (and which stored one to use): access or refresh.")
        var type: TokenKind = .refresh

        @OptionGroup var clientSecret: ClientSecretOption
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await CommandRunner.run(global) { context throws(IdFlowError) in
                try await RevokeToken(token: TokenInput(argument: token), kind: type, clientSecret: try clientSecret.secret(context)).run(context)
            }
        }
    }
}

struct UserinfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "userinfo", abstract: "Fetch the OIDC userinfo claims for the stored (or given) access token.")

    @Flag(name: .customLong("access-token-stdin"), help: "Read the access token from standard input instead of the store.")
    var accessTokenStdin = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await FetchUserinfo(token: accessTokenStdin ? .standardInput : .stored).run(context)
        }
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke the profile's refresh and access tokens and clear its store.")

    @OptionGroup var clientSecret: ClientSecretOption
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await Logout(clientSecret: try clientSecret.secret(context)).run(context)
        }
    }
}
