import Foundation

/// Where the token a flow works on comes from: the profile's store, standard input, or the command line.
/// Resolved inside the flow, so every token command reads, trims and warns about tokens the same way.
public enum TokenInput: Sendable, Equatable {
    /// The token of the asked kind stored by the profile's last login.
    case stored
    /// The whole of standard input, surrounding whitespace trimmed (as `<<<` and `echo` add a newline).
    case standardInput
    /// The token itself, given on the command line (other users can read it in `ps`, which is warned about).
    case argument(String)

    /// The command-line convention: nothing for the stored token, `-` for standard input, else the token itself.
    public init(argument: String?) {
        switch argument {
        case nil: self = .stored
        case "-": self = .standardInput
        case let token?: self = .argument(token)
        }
    }

    /// The token's value; `kind` picks the stored token (the other sources are taken as given).
    public func resolve(kind: TokenKind, context: IdFlowContext) throws(IdFlowError) -> String {
        switch self {
        case .stored: try Self.storedToken(kind, context)
        case .standardInput: try context.secrets.read("token", from: .standardInput).value.trimmingCharacters(in: .whitespacesAndNewlines)
        case .argument(let token): try context.secrets.read("token", from: .argument(token)).value
        }
    }

    /// The profile's stored token of `kind`, or the local-state error that says to log in.
    public static func storedToken(_ kind: TokenKind, _ context: IdFlowContext) throws(IdFlowError) -> String {
        let stored = try TokenStore(directory: context.configuration.profileDirectory)
            .loadRequired(profile: context.configuration.profile, hint: "log in first with `idflow login-pkce`, or pass the token")
        guard let token = stored.token(kind) else {
            throw .localState("no \(kind.rawValue) is stored for profile \(context.configuration.profile)")
        }
        return token
    }
}
