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
