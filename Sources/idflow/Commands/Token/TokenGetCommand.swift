import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct TokenGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the profile's token for a script or kubectl, refreshed first when it expires within --min-ttl.",
        usage: "idflow token get [<options>]",
        discussion: """
            Prints {"access_token", "token_type", "expires_at", "scope"} (and the ID token with --token-type id), \
            refreshed first when it expires within --min-ttl seconds. Nothing stored: exit 12; a refused refresh: \
            exit 4, naming the login to run. --output exec-credential makes idflow a kubectl credential plugin \
            (docs/calling-apis.md).

              $ curl -H "Authorization: Bearer $(idflow token get | \\
                  jq -r .access_token)" https://api.example.com/v1/me
              $ idflow token get --output exec-credential --profile k8s

            \(GlobalOptions.helpNote)
            """)

    @Option(
        name: .customLong("min-ttl"),
        help: ArgumentHelp("Refresh first when the token expires within this many seconds.", valueName: "seconds"))
    var minTTL: Int = Int(GetToken.defaultMinimumTTL)

    @Option(help: ArgumentHelp("json, or exec-credential for kubectl.", valueName: "format"))
    var output: GetToken.Format = .json

    @Option(
        name: .customLong("token-type"),
        help: ArgumentHelp(
            "Which token: id or access (default: access for json, id for exec-credential); never refresh.", valueName: "type"))
    var tokenType: TokenKind?

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if minTTL < 0 { throw ValidationError("--min-ttl must be a number of seconds, 0 or more") }
        if tokenType == .refresh { throw ValidationError("--token-type must be id or access: token get never prints the refresh token") }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await GetToken(minimumTTL: Double(minTTL), format: output, tokenType: tokenType).run(context)
        }
    }
}

extension GetToken.Format: ExpressibleByArgument {}
