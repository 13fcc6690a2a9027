import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct TOTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Print the current TOTP code of a kept seed.",
        discussion: """
            Prints {"code", "period", "expiresIn"}: the 6-digit RFC 6238 code (HMAC-SHA1, 30-second steps) of the seed \
            that `login-pkce --embedded --totp-secret-file F` or `register --embedded --totp-secret-file F` kept, for a \
            runbook that types the code somewhere idflow does not reach. The seed file must be readable by you alone \
            (0600). Sign-ins with --totp-secret-file compute their codes themselves and never reuse one.

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
