import ArgumentParser
import Foundation
import IdFlowCore

/// Reads a token named on the command line: `-` for stdin, nothing for the profile's stored one.
enum TokenArgument {
    static func resolve(_ argument: String?, kind: TokenKind, _ context: IdFlowContext) throws(IdFlowError) -> String {
        switch argument {
        case nil: return try TokenTools.stored(kind, context).0
        case "-": return try context.secrets.read("token", from: .standardInput).value.trimmingCharacters(in: .whitespacesAndNewlines)
        case let token?: return try context.secrets.read("token", from: .argument(token)).value
        }
    }
}

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
