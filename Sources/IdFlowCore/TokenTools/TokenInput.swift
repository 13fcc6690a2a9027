import Foundation
import IdFlowFoundation

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

    /// A token's value, and the login it was stored by (nil for a token the caller gave).
    public struct Resolved: Sendable {
        public var value: String
        /// Where a stored token came from: it may only be sent to this login's issuer.
        public var origin: StoredTokens?
    }

    /// The token's value; `kind` picks the stored token (the other sources are taken as given).
    public func resolve(kind: TokenKind, context: IdFlowContext) throws(IdFlowError) -> Resolved {
        switch self {
        case .stored:
            let stored = try TokenStore(directory: context.configuration.profileDirectory)
                .loadRequired(profile: context.configuration.profile, hint: "log in first with `idflow login-pkce`, or pass the token")
            guard let token = stored.token(kind) else {
                throw .localState("no \(kind.rawValue) is stored for profile \(context.configuration.profile)")
            }
            return Resolved(value: token, origin: stored)
        case .standardInput:
            let value = try context.secrets.read("token", from: .standardInput).value.trimmingCharacters(in: .whitespacesAndNewlines)
            return Resolved(value: value, origin: nil)
        case .argument(let token):
            return Resolved(value: try context.secrets.read("token", from: .argument(token)).value, origin: nil)
        }
    }
}

extension TokenInput.Resolved {
    /// The issuer to send this token to: a stored token's own (`StoredTokens.pinnedIssuer`), else the
    /// configured one, as the flags say.
    func issuer(_ context: IdFlowContext) throws(IdFlowError) -> URL? {
        try origin?.pinnedIssuer(context)
    }

    /// The authorization server to present this token at, as the client that obtained it when it was stored.
    func server(_ context: IdFlowContext, clientSecret: Secret?) async throws(IdFlowError) -> AuthorizationServer {
        if let origin { return try await AuthorizationServer.discover(context, for: origin, clientSecret: clientSecret) }
        return try await AuthorizationServer.discover(context, clientSecret: clientSecret)
    }
}
