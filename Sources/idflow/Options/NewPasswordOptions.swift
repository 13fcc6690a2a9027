import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// Where the password that replaces an expired or forgotten one comes from: stdin, a file or `IDFLOW_NEW_PASSWORD`
/// (never the command line, where `ps` shows it); none of them means a prompt at a terminal.
struct NewPasswordOptions: ParsableArguments {
    @Flag(
        name: .customLong("new-password-stdin"),
        help: "Read the new password (expired, --recover) from stdin.")
    var newPasswordStdin = false

    @Option(
        name: .customLong("new-password-file"), help: ArgumentHelp("Read the new password from a file.", valueName: "path"),
        completion: .file())
    var newPasswordFile: String?

    var given: Bool { newPasswordStdin || newPasswordFile != nil }

    func read(_ context: IdFlowContext) throws(IdFlowError) -> NewPassword {
        let variable = "IDFLOW_NEW_PASSWORD"
        guard given || !(context.secrets.environment[variable] ?? "").isEmpty else { return NewPassword() }
        let source = try SecretSource.choose(
            what: "new password", stdin: newPasswordStdin, file: newPasswordFile, argument: nil, environmentVariable: variable,
            environment: context.secrets.environment)
        return NewPassword(given: try context.secrets.read("new password", from: source))
    }
}
