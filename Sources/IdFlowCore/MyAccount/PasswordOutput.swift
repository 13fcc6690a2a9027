import Foundation
import IdFlowFoundation

/// What `password change` and `password reset` print (docs/contract.md): `{"changed": true, "method", "username"?,
/// "factor"?, "password"?}`. `method` is `change` (the old password given) or `reset` (a recovery); `factor` the one
/// that proved who the user is; `password` the Password object the server answered a reset with.
public struct PasswordOutput: Encodable, Sendable, Equatable {
    public var changed = true
    public var method: String
    public var username: String?
    public var factor: String?
    public var password: MyAccountPasswordStatus?
}
