import ArgumentParser
import IdFlowCore
import IdFlowFoundation

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
