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
}
