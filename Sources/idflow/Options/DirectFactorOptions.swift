import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

/// The factors Direct Authentication proves a user with besides the password, shared by `login-direct` and
/// `password reset`: a one-time code (typed or piped, or computed from a kept seed) or an out-of-band channel, and
/// where an SMS or voice code comes from. Secrets come from stdin or a file, never argv.
struct DirectFactorOptions: ParsableArguments {
    @Flag(name: .customLong("otp-stdin"), help: "Read the one-time code from stdin.")
    var otpStdin = false

    @Option(
        name: .customLong("totp-secret-file"),
        help: ArgumentHelp("Compute the code from this kept TOTP seed, each once.", valueName: "path"), completion: .file())
    var totpSecretFile: String?

    @Option(help: ArgumentHelp("Answer out of band through this channel.", valueName: "channel"))
    var oob: OOBChannel?

    @Flag(name: .customLong("binding-code-stdin"), help: "Read the SMS or voice code from stdin.")
    var bindingCodeStdin = false

    /// Whether a one-time code was given (`--otp-stdin` or `--totp-secret-file`).
    var givesCode: Bool { otpStdin || totpSecretFile != nil }

    /// Where the one-time code comes from, when one was given.
    var code: LoginDirect.Code? {
        otpStdin ? .given(.standardInput) : totpSecretFile.map { .seed(TOTPSeedFile(URL(fileURLWithPath: $0))) }
    }

    /// Where the SMS or voice code comes from: stdin with `--binding-code-stdin`, else a terminal.
    var bindingCode: SecretSource? { bindingCodeStdin ? .standardInput : nil }
}
