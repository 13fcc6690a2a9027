import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct PasskeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the passkeys kept on this machine, oldest first.",
        discussion: """
            Each: id (the credential id, base64url), rpId, origin, userHandle, aaguid, signCount, sealed (a PIN \
            seals the key; only then does it say the user was verified) and created.

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try ListPasskeys().run(context)
        }
    }
}
