import ArgumentParser
import IdFlowCore

/// `--client-secret-file` for confidential clients (client_secret_basic); public native apps have none.
struct ClientSecretOption: ParsableArguments {
    @Option(
        name: .customLong("client-secret-file"),
        help: ArgumentHelp("A file holding the client secret of a confidential client (sent with HTTP Basic).", valueName: "path"),
        completion: .file())
    var clientSecretFile: String?

    func secret(_ context: IdFlowContext) throws(IdFlowError) -> Secret? {
        guard let clientSecretFile else { return nil }
        return try context.secrets.read("client secret", from: .file(clientSecretFile))
    }
}
