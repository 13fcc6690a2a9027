import Foundation

/// One device authorization (RFC 8628): the codes handed out at `/v1/device/authorize`, what the user said at
/// `/activate` (or `POST /sandbox/device`), and the polling the token endpoint has seen.
struct DeviceAuthorizationRecord: Sendable {
    let deviceCode: String
    /// `XXXX-XXXX`; looked up without its dash and case-insensitively (RFC 8628 §6.1).
    let userCode: String
    let server: HostedAuthorizationServer
    let clientId: String
    let scopes: [String]
    let expiresAt: Date
    /// The interval the client must keep between polls; each `slow_down` adds 5 seconds (RFC 8628 §3.5).
    var interval: TimeInterval
    var lastPolledAt: Date?
    var decision: DeviceDecision = .pending
    /// Set once the tokens were issued: the device code is spent and never yields tokens again.
    var redeemed = false
}

/// What the user answered for a user code.
enum DeviceDecision: Sendable, Equatable {
    case pending
    case approved(userId: String, authTime: Date)
    case denied(userId: String)

    /// The status word of `POST /sandbox/device` answers.
    var status: String {
        switch self {
        case .pending: return "PENDING"
        case .approved: return "APPROVED"
        case .denied: return "DENIED"
        }
    }
}

/// Whether a user approves or denies a code (the `/activate` form's button, `/sandbox/device`'s `decision`).
enum DeviceVerdict: String, Sendable {
    case approve
    case deny
}

/// The outcome of the `/activate` sign-in form.
enum DeviceSignInResult: Sendable {
    /// The user code is unknown, expired or already answered.
    case unknownCode
    /// Wrong username or password: show the form again.
    case rejected
    /// Signed in and answered.
    case decided(DeviceDecision)
}
