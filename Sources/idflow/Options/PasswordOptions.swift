import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// Where a password comes from: stdin, a file, `IDFLOW_PASSWORD`, (warned about) the command line, or at a terminal
/// a hidden prompt.
struct PasswordOptions: ParsableArguments {
    @Flag(name: .customLong("password-stdin"), help: "Read the password from stdin (one newline dropped).")
    var passwordStdin = false

    @Option(
        name: .customLong("password-file"), help: ArgumentHelp("Read the password from a file.", valueName: "path"), completion: .file())
    var passwordFile: String?

    @Option(
        help: ArgumentHelp("The password (visible in `ps`); or IDFLOW_PASSWORD.", valueName: "password"))
    var password: String?

    var given: Bool { passwordStdin || passwordFile != nil || password != nil }

    /// The password; with none given at a terminal, a hidden prompt (twice when `confirming`, for one being chosen).
    func read(_ context: IdFlowContext, confirming: Bool = false) throws(IdFlowError) -> Secret {
        try context.readSecret(
            "password", stdin: passwordStdin, file: passwordFile, argument: password, environmentVariable: "IDFLOW_PASSWORD",
            confirming: confirming)
    }
}
