import ArgumentParser
import IdFlowCore

/// Where a password comes from: stdin, a file, `IDFLOW_PASSWORD`, or (warned about) the command line.
struct PasswordOptions: ParsableArguments {
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (one trailing newline is dropped).")
    var passwordStdin = false

    @Option(
        name: .customLong("password-file"), help: ArgumentHelp("Read the password from a file.", valueName: "path"), completion: .file())
    var passwordFile: String?

    @Option(
        help: ArgumentHelp("The password on the command line (visible in `ps`; warns). IDFLOW_PASSWORD works too.", valueName: "password"))
    var password: String?

    var given: Bool { passwordStdin || passwordFile != nil || password != nil }

    func read(_ context: IdFlowContext) throws(IdFlowError) -> Secret {
        let source = try SecretSource.choose(
            what: "password", stdin: passwordStdin, file: passwordFile, argument: password,
            environmentVariable: "IDFLOW_PASSWORD", environment: context.secrets.environment)
        return try context.secrets.read("password", from: source)
    }
}
