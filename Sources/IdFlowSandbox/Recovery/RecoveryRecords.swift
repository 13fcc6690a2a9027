import Foundation

/// Why an Authn transaction lets a user set a password or unlock the account (`recoveryType` on the wire).
enum RecoveryType: String, Sendable {
    /// A forgotten password (`recovery/password`, an admin's `reset_password` or `forgot_password` link).
    case password = "PASSWORD"
    /// A locked account (`recovery/unlock`): the end is SUCCESS without a session, the user ACTIVE again.
    case unlock = "UNLOCK"
    /// The first password of a user created without one (the activation token, okta-core.md §C1).
    case accountActivation = "ACCOUNT_ACTIVATION"
}

/// How a recovery proves the user: a link by e-mail, or a code by text message or voice call (`factorType`).
enum RecoveryFactor: String, Sendable {
    case email = "EMAIL"
    case sms = "SMS"
    case call = "CALL"

    /// The Authn `factorType` in any case (`sms`, `SMS`), as clients send both.
    init?(wire: String) {
        self.init(rawValue: wire.uppercased())
    }

    /// The password policy's authenticator that must be allowed to recover (`passwordPolicy.recovery.authenticators`).
    var authenticator: IDXPolicy.Authenticator { self == .email ? .email : .phone }

    /// The outbox `channel` of a code sent this way.
    var channel: IDXCodeChannel {
        switch self {
        case .email: return .email
        case .sms: return .sms
        case .call: return .voice
        }
    }
}

/// A recovery token handed out by e-mail or by the admin's `reset_password`/`forgot_password`: single-use, and
/// dead once the user has a new password (every token of the user goes then).
struct RecoveryGrant: Sendable {
    let userId: String
    let type: RecoveryType
    let expiresAt: Date
}
