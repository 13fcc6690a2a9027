import IdFlowFoundation

/// A password about to expire (Authn PASSWORD_WARN, the Identity Engine's `reenroll-authenticator-warning`): the
/// login goes on, and the warning is printed on stderr and kept in the output as `password_warning`, so a runbook
/// can see it without parsing messages.
public struct PasswordExpiryWarning: Encodable, Sendable, Equatable {
    /// Days left, when the server says.
    public var daysToExpiry: Int?
    public var message: String

    public init(daysToExpiry: Int?, message: String) {
        self.daysToExpiry = daysToExpiry
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case daysToExpiry = "days_to_expiry"
        case message
    }

    /// The line for stderr, with how to change it.
    var notice: String {
        "warning: \(message); change it by logging in again with \(NewPassword.options)"
    }
}
