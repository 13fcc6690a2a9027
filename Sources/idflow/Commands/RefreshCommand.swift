import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Refresh the stored tokens (the rotated one saved).",
        usage: "idflow refresh [<options>]",
        discussion: """
            Holds the profile's lock from read to write, so concurrent runs all succeed. A refresh token the server \
            did not rotate is kept. invalid_grant exits 4 and leaves the store untouched: log in again.

              $ idflow refresh | jq -r .access_token
              $ idflow refresh --refresh-token-stdin --no-store < rt.txt

            \(GlobalOptions.helpNote)
            """)

    @Flag(
        name: .customLong("refresh-token-stdin"), help: "Refresh a token read from stdin; the store is not used.")
    var refreshTokenStdin = false

    @Flag(name: .customLong("no-store"), help: "Print without saving (a rotated token is then lost to the store).")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let given = refreshTokenStdin ? try context.secrets.read("refresh token", from: .standardInput) : nil
            return try await RefreshTokens(
                store: !noStore && !refreshTokenStdin, givenRefreshToken: given, clientSecret: try clientSecret.secret(context)
            ).run(context)
        }
    }
}
