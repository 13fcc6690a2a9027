import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke the profile's tokens and clear its store.",
        discussion: """
            A refused revocation keeps the login stored (exit 4). --local forgets it anyway; tokens not revoked are \
            listed in "notRevoked" and stay valid until they expire.

            \(GlobalOptions.helpNote)
            """)

    @Flag(help: "Clear the stored login even when the server refuses to revoke it (the refusal is reported).")
    var local = false

    @OptionGroup var clientSecret: ClientSecretOption
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await Logout(clientSecret: try clientSecret.secret(context), local: local).run(context)
        }
    }
}
