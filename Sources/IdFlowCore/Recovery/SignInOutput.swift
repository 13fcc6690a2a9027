import Foundation
import IdFlowFoundation

/// What a sign-in with a password prints (`login-pkce` headless and `--embedded`): the tokens, plus what became of
/// the password on the way. The foundation's `TokenOutput` knows only tokens; these two fields belong to the
/// sign-ins that can meet an expiring or expired password, so they wrap it instead of being patched onto it.
/// Members of `TokenOutput` read through (`output.response`, `output.idTokenClaims`).
@dynamicMemberLookup
public struct SignInOutput: Encodable, Sendable, Equatable {
    public var tokens: TokenOutput
    /// The sign-in warned that the password is about to expire (and it was not changed).
    public var passwordWarning: PasswordExpiryWarning?
    /// The sign-in changed the password (expired, warned, or reset after recovery).
    public var passwordChanged = false

    public init(tokens: TokenOutput, passwordWarning: PasswordExpiryWarning? = nil, passwordChanged: Bool = false) {
        self.tokens = tokens
        self.passwordWarning = passwordWarning
        self.passwordChanged = passwordChanged
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<TokenOutput, Value>) -> Value { tokens[keyPath: keyPath] }

    enum CodingKeys: String, CodingKey {
        case passwordWarning = "password_warning"
        case passwordChanged = "password_changed"
    }

    /// The token output's keys, then `password_warning` and `password_changed` (only when true), as docs/contract.md has it.
    public func encode(to encoder: any Encoder) throws {
        try tokens.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(passwordWarning, forKey: .passwordWarning)
        if passwordChanged { try container.encode(true, forKey: .passwordChanged) }
    }
}
