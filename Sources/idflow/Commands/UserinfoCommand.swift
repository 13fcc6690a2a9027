import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct UserinfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "userinfo", abstract: "Fetch the OIDC userinfo claims of an access token.",
        discussion: GlobalOptions.helpNote)

    @Flag(name: .customLong("access-token-stdin"), help: "Read the access token from standard input instead of the store.")
    var accessTokenStdin = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await FetchUserinfo(token: accessTokenStdin ? .standardInput : .stored).run(context)
        }
    }
}
