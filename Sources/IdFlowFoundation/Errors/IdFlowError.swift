import Foundation

/// Every failure idflow reports, carrying what the user needs to fix it; the CLI renders it as the
/// one-line JSON error of docs/contract.md and exits with `exitStatus`.
public enum IdFlowError: Error, Sendable, Equatable {
    /// An Okta endpoint answered with its error body.
    case okta(status: Int, body: OktaErrorBody, hint: String? = nil)
    /// An OAuth endpoint answered with an OAuth error (also used for `error=` redirects).
    case oauth(status: Int?, body: OAuthErrorBody, hint: String? = nil)
    /// The server answered with a status idflow did not expect and a body that is not a known error shape.
    /// `url` (secrets masked) names the request, which a bodiless answer otherwise leaves the user to guess.
    case unexpectedResponse(status: Int, contentType: String?, snippet: String, url: String? = nil)
    /// Still answered 429 after the retry budget was spent.
    case rateLimited(attempts: Int, body: OktaErrorBody?)
    /// No answer: connection refused, DNS, TLS, reset, timeout; `hint` when the cause is known well enough to
    /// name its fix (an untrusted issuer: `--ca-file`; a server that wants a client certificate: `--client-cert`).
    case network(url: String, reason: String, hint: String? = nil)
    /// A plain-http URL whose host is not loopback; tokens would cross the network in clear text.
    case insecureURL(String)
    /// A required setting is missing or malformed; `hint` says which flag or variable sets it.
    case configuration(String, hint: String)
    /// An argument the user passed cannot be used.
    case invalidInput(String, hint: String? = nil)
    /// Nothing was found for what the user named.
    case notFound(String, hint: String? = nil)
    /// The authorization or token exchange failed in a way that is not the server's error body.
    case authentication(String, hint: String? = nil)
    /// The user or a policy said no (push denied, MFA rejected, consent denied).
    case denied(String, hint: String? = nil)
    /// Gave up waiting for something (a browser callback, a push answer).
    case timedOut(String, hint: String? = nil)
    /// The user pressed Ctrl-C (SIGINT), or SIGTERM came, while idflow waited or at a prompt; nothing was stored,
    /// and what was kept for the interrupted work has been removed. `hint` when something was done that the
    /// default hint would deny (an interrupted batch has created users).
    case interrupted(String, hint: String? = nil)
    /// A security check failed: state mismatch, token signature or claims, an unexpected host.
    case security(String, hint: String? = nil)
    /// The local state (token store, device keys, lock) cannot be used.
    case localState(String, hint: String? = nil)
    /// The server refused to go on for a reason that is not an error body (an unexpected transaction state).
    case rejected(String, hint: String? = nil)
    /// A new password breaks rules of the policy the server published; each broken rule is one cause.
    case weakPassword(causes: [String], hint: String? = nil)
    /// The server's answer is well-formed but not what the protocol allows at this step.
    case protocolViolation(String)
    /// A bug: something that should not happen.
    case internalFailure(String)
    /// A family stopped the run its own way (`FlowStop`): a pending embedded sign-in form (exit 3), a custom
    /// identity provider's status (exit 10, 11), a batch with failed lines, a protected resource's refusal. Made
    /// with `.stopped(_:)`, read with `stop(as:)`.
    case stoppedFlow(StoppedFlow)
}

extension IdFlowError {
    /// The exit code scripts branch on.
    public var exitStatus: IdFlowExitCode {
        switch self {
        case .okta(let status, let body, _): return Self.exitStatus(httpStatus: status, oktaCode: body.errorCode)
        case .oauth(let status, let body, _): return Self.exitStatus(oauthError: body.error, httpStatus: status)
        case .unexpectedResponse(let status, _, _, _): return Self.exitStatus(httpStatus: status, oktaCode: nil)
        case .rateLimited: return .server
        case .network: return .network
        case .insecureURL, .security: return .security
        case .configuration, .invalidInput: return .usage
        case .notFound: return .notFound
        case .rejected, .weakPassword: return .rejected
        case .authentication: return .authentication
        case .denied: return .denied
        case .timedOut: return .timedOut
        case .interrupted: return .interrupted
        case .localState: return .localState
        case .protocolViolation: return .server
        case .internalFailure: return .internalFailure
        case .stoppedFlow(let flow): return flow.stop.exitStatus
        }
    }

    /// Okta codes answered with 403 that mean "the request is not allowed in this state or by policy",
    /// not "you are not who you say": they are rejections (exit 3), not authentication failures.
    static let rejectionCodes: Set<String> = [
        "E0000014", "E0000016", "E0000032", "E0000034", "E0000035", "E0000038", "E0000079", "E0000080", "E0000125",
    ]

    static func exitStatus(httpStatus: Int, oktaCode: String?) -> IdFlowExitCode {
        switch httpStatus {
        case 404: return .notFound
        case 401: return .authentication
        case 403: return oktaCode.map(rejectionCodes.contains) == true ? .rejected : .authentication
        case 429, 500...599: return .server
        case 400...499: return .rejected
        default: return .server
        }
    }

    static func exitStatus(oauthError: String, httpStatus: Int?) -> IdFlowExitCode {
        switch oauthError {
        case "invalid_grant", "invalid_client", "invalid_token", "unauthorized_client", "login_required",
            "interaction_required", "consent_required", "account_selection_required",
            // Refused proofs of possession and a token without the scope a call needs: the credentials, not the request.
            "invalid_dpop_proof", "insufficient_scope":
            return .authentication
        case "access_denied": return .denied
        // RFC 8628 §3.5: the device code ran out before the user answered.
        case "expired_token": return .timedOut
        // The Token Server's custom-registration errors: no such identity provider, or no such transaction.
        case "invalid_idp_identifier", "invalid_transaction": return .notFound
        case "server_error", "temporarily_unavailable": return .server
        default:
            if let httpStatus, httpStatus >= 500 { return .server }
            return .rejected
        }
    }

    /// The failures that still print a document on stdout: the families' stops that have one (a custom
    /// registration's recoverable status, an embedded sign-in's pending form, a protected resource's answer with
    /// `api --include`).
    public var standardOutputDocument: (any Encodable & Sendable)? {
        guard case .stoppedFlow(let flow) = self else { return nil }
        return flow.stop.standardOutputDocument
    }

    /// A short machine-readable category for the `kind` key of the error line.
    public var kind: String {
        switch self {
        case .okta: return "server_rejected"
        case .oauth: return "oauth_error"
        case .unexpectedResponse: return "unexpected_response"
        case .rateLimited: return "rate_limited"
        case .network: return "network"
        case .insecureURL: return "insecure_url"
        case .configuration: return "configuration"
        case .invalidInput: return "invalid_input"
        case .notFound: return "not_found"
        case .rejected: return "rejected"
        case .weakPassword: return "password_policy"
        case .authentication: return "authentication"
        case .denied: return "denied"
        case .timedOut: return "timed_out"
        case .interrupted: return "interrupted"
        case .security: return "security"
        case .localState: return "local_state"
        case .protocolViolation: return "protocol_violation"
        case .internalFailure: return "internal"
        case .stoppedFlow(let flow): return flow.stop.kind
        }
    }
}
