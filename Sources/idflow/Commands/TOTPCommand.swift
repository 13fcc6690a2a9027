import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct TOTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Print the current TOTP code of a kept seed.",
        discussion: """
            Prints {"code", "period", "expiresIn"}: the RFC 6238 code of a seed an embedded enrollment kept, for a \
            runbook that types it where idflow does not reach. The seed file must be 0600.

              $ idflow totp --secret-file ~/.config/jo.totp | jq -r .code
              $ idflow totp --secret-stdin < seed.txt

            \(GlobalOptions.helpNote)
            """)

    @Option(
        name: .customLong("secret-file"), help: ArgumentHelp("The seed file an enrollment wrote (Base32, mode 0600).", valueName: "file"),
        completion: .file())
    var secretFile: String?

    @Flag(name: .customLong("secret-stdin"), help: "Read the Base32 seed from standard input.")
    var secretStdin = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        guard (secretFile != nil) != secretStdin else { throw ValidationError("choose exactly one of --secret-file or --secret-stdin") }
    }

    func run() async throws {
        let seed: CurrentTOTPCode.Seed =
            secretFile.map { .file(TOTPSeedFile(URL(fileURLWithPath: $0))) } ?? .standardInput
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try CurrentTOTPCode(seed: seed).run(context)
        }
    }
}
