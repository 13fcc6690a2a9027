import ArgumentParser
import Foundation
import IdFlowCore

/// `--client-secret-file` for confidential clients (client_secret_basic); public native apps have none.
struct ClientSecretOption: ParsableArguments {
    @Option(name: .customLong("client-secret-file"), help: ArgumentHelp("A file holding the client secret of a confidential client (sent with HTTP Basic).", valueName: "path"))
    var clientSecretFile: String?

    func secret(_ context: IdFlowContext) throws(IdFlowError) -> Secret? {
        guard let clientSecretFile else { return nil }
        return try context.secrets.read("client secret", from: .file(clientSecretFile))
    }
}

extension TokenKind: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "access", "access_token": self = .access
        case "refresh", "refresh_token": self = .refresh
        case "id", "id_token": self = .id
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["access", "refresh", "id"] }
}
