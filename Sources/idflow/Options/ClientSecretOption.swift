import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// `--client-secret-file` for confidential clients (client_secret_basic); public native apps have none.
/// Without it the environment or the profile may still name one (`IdFlowContext.clientSecret(file:)`).
struct ClientSecretOption: ParsableArguments {
    @Option(
        name: .customLong("client-secret-file"),
        help: ArgumentHelp(
            "A confidential client's secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).",
            valueName: "path"),
        completion: .file())
    var clientSecretFile: String?

    func secret(_ context: IdFlowContext) throws(IdFlowError) -> Secret? {
        try context.clientSecret(file: clientSecretFile)
    }

    /// The secret of a client that may prove itself with a key instead (`login-client`, `token exchange`): both on
    /// the command line is refused, and a key given there wins over a secret the environment or profile may hold.
    func secret(_ context: IdFlowContext, unlessKey privateKeyFile: String?) throws(IdFlowError) -> Secret? {
        if clientSecretFile != nil, privateKeyFile != nil {
            throw IdFlowError.invalidInput(
                "--client-secret-file and --private-key-file cannot be used together", hint: "a client proves itself one way")
        }
        return privateKeyFile == nil ? try secret(context) : nil
    }
}
