import Foundation
import IdFlowFoundation

/// What `password change` and `password reset` print (docs/contract.md): `{"changed": true, "method", "username"?,
/// "factor"?, "password"?}`. `method` is `change` (the old password given) or `reset` (a recovery); `factor` the one
/// that proved who the user is; `password` the Password object the server answered a reset with. The contract had
/// promised `{"userId"?, "login", "status", "passwordChanged": true}` before the first build: those keys are printed
/// too (`login` null when the stored ID token names no user, `status` the password's, ACTIVE once it is set).
public struct PasswordOutput: Encodable, Sendable, Equatable {
    public var changed = true
    public var method: String
    public var username: String?
    public var factor: String?
    public var password: MyAccountPasswordStatus?
    /// The user's id (`sub` of the stored ID token), when known.
    public var userId: String?

    enum CodingKeys: String, CodingKey {
        case changed, method, username, factor, password, userId, login, status, passwordChanged
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(changed, forKey: .changed)
        try container.encode(method, forKey: .method)
        try container.encodeIfPresent(username, forKey: .username)
        try container.encodeIfPresent(factor, forKey: .factor)
        try container.encodeIfPresent(password, forKey: .password)
        try container.encodeIfPresent(userId, forKey: .userId)
        try container.encode(username, forKey: .login)
        try container.encode(password?.status ?? "ACTIVE", forKey: .status)
        try container.encode(changed, forKey: .passwordChanged)
    }
}
