extension IdFlowError {
    /// The same failure (kind, message, exit code) with `more` said after its hint: what a caller knows that the
    /// request did not (that a login is still stored, and how to forget it). Failures without a hint of their own to
    /// extend are returned as they are.
    public func addingHint(_ more: String) -> IdFlowError {
        let extended = hint.map { "\($0); \(more)" } ?? more
        switch self {
        case .okta(let status, let body, _): return .okta(status: status, body: body, hint: extended)
        case .oauth(let status, let body, _): return .oauth(status: status, body: body, hint: extended)
        case .network(let url, let reason, _): return .network(url: url, reason: reason, hint: extended)
        case .configuration(let message, _): return .configuration(message, hint: extended)
        case .invalidInput(let message, _): return .invalidInput(message, hint: extended)
        case .notFound(let message, _): return .notFound(message, hint: extended)
        case .authentication(let message, _): return .authentication(message, hint: extended)
        case .denied(let message, _): return .denied(message, hint: extended)
        case .rejected(let message, _): return .rejected(message, hint: extended)
        case .security(let message, _): return .security(message, hint: extended)
        default: return self
        }
    }
}
