import Foundation

/// The out-of-band channels of Direct Authentication (`channel_hint`, `channel`).
enum DirectAuthChannel: String, Sendable {
    case push
    case sms
    case voice

    /// The RFC 8176 `amr` value of a factor passed on this channel: Okta Verify's key (`swk`), a texted or a spoken code.
    var amr: String {
        switch self {
        case .push: return "swk"
        case .sms: return "sms"
        case .voice: return "tel"
        }
    }
}

/// One out-of-band authentication, from `/primary-authenticate` (`/oob-authenticate`) or `/challenge` until its
/// tokens, its denial or its expiry. Bound to the client and authorization server that started it.
struct DirectAuthOOBRecord: Sendable {
    let oobCode: String
    let userId: String
    let clientId: String
    let server: HostedAuthorizationServer
    let channel: DirectAuthChannel
    let expiresAt: Date
    let interval: TimeInterval
    /// The MFA transaction this OOB is the second factor of; nil for a primary OOB.
    let mfaToken: String?
    /// The push challenges sent (one per push enrollment of the user).
    var pushTransactionIds: [String] = []
    /// The number of a number challenge (`binding_method: transfer`).
    var transferCode: String?
    /// The code texted or spoken (`binding_method: prompt`).
    var promptCode: String?
    var lastPolledAt: Date?
    /// Wrong `binding_code`s so far (`passwordPolicy.lockout.maxCodeAttempts`).
    var codeFailures = 0

    var bindingMethod: String {
        switch channel {
        case .push: return transferCode == nil ? "none" : "transfer"
        case .sms, .voice: return "prompt"
        }
    }
}

/// The transaction behind an `mfa_token`: a right password that needs a second factor.
struct DirectAuthMFARecord: Sendable {
    let mfaToken: String
    let userId: String
    let clientId: String
    let server: HostedAuthorizationServer
    let scopes: [String]
    let expiresAt: Date
    /// The challenge types the user can answer (`supported_challenge_types`).
    let challengeTypes: [DirectAuthGrant]
    /// Wrong OTPs so far.
    var codeFailures = 0
}
