import IdFlowFoundation

/// What a custom identity provider's script status means (custom-registration.md §2): the platform defines
/// only the ranges; the numbers inside them are the script author's.
public enum StatusRange: Sendable, Equatable {
    /// 2000–2999: the step succeeded.
    case success
    /// 4000–4999: the step failed and the user may try it again, in the same transaction.
    case retry
    /// 5000–5999, and anything outside the three ranges: the registration is over; start again.
    case restart

    public init(_ status: Int) {
        switch status {
        case 2000...2999: self = .success
        case 4000...4999: self = .retry
        default: self = .restart
        }
    }
}

/// The two steps of a registration: `init` (two-step identity providers only) and `complete`.
public enum RegistrationStep: String, Sendable, Codable, Equatable {
    case initialize = "init"
    case complete
}
