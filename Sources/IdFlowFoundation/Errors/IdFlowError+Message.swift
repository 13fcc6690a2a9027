import Foundation

extension IdFlowError {
    /// A sentence a person can act on.
    public var message: String {
        switch self {
        case .okta(let status, let body, _):
            let causes = body.causeSummaries
            return causes.isEmpty
                ? "\(body.errorSummary) (\(body.errorCode), HTTP \(status))"
                : "\(body.errorSummary) (\(body.errorCode), HTTP \(status)): \(causes.joined(separator: "; "))"
        case .oauth(_, let body, _):
            return body.errorDescription.map { "\(body.error): \($0)" } ?? body.error
        case .unexpectedResponse(let status, let contentType, let snippet, let url):
            let type = contentType ?? "no content type"
            let request = url.map { " to \($0)" } ?? ""
            return snippet.isEmpty
                ? "the server answered HTTP \(status)\(request) with an empty body (\(type))"
                : "the server answered HTTP \(status)\(request) with a body idflow cannot read (\(type)): \(snippet)"
        case .rateLimited(let attempts, _):
            return "still rate-limited (HTTP 429) after \(attempts) attempts"
        case .network(let url, let reason, _):
            return "could not reach \(url): \(reason)"
        case .insecureURL(let url):
            return "refusing plain http to a host that is not loopback: \(url)"
        case .weakPassword(let causes, _):
            return "the new password does not meet the password policy: \(causes.joined(separator: "; "))"
        case .configuration(let message, _), .invalidInput(let message, _), .notFound(let message, _), .rejected(let message, _),
            .authentication(let message, _), .denied(let message, _), .timedOut(let message, _),
            .security(let message, _), .localState(let message, _), .protocolViolation(let message),
            .internalFailure(let message), .interrupted(let message, _):
            return message
        case .stoppedFlow(let flow):
            return flow.stop.message
        }
    }

    /// What to do next, when idflow knows.
    public var hint: String? {
        switch self {
        case .okta(let status, let body, let hint):
            return hint ?? Self.defaultHint(status: status, code: body.errorCode)
        case .oauth(_, _, let hint): return hint
        case .unexpectedResponse(let status, _, _, _):
            switch status {
            case 500...: return "the server or a proxy in front of it failed; try again later or check --org-url"
            case 401, 403:
                return "the server refused the credentials without saying why: check the client id and secret, or log in again"
            case 400...: return "the server refused the request without saying why; --verbose shows what was sent"
            default: return nil
            }
        case .rateLimited:
            return "wait for the rate-limit window to reset, or raise --max-retries"
        case .network(_, _, let hint):
            return hint ?? "check --org-url, your network and proxy settings (--proxy, HTTPS_PROXY); --verbose shows each attempt"
        case .insecureURL:
            return "use https://, or http:// only for 127.0.0.1, ::1 or localhost"
        case .configuration(_, let hint): return hint
        case .invalidInput(_, let hint), .notFound(_, let hint), .rejected(_, let hint), .authentication(_, let hint),
            .denied(_, let hint), .timedOut(_, let hint), .security(_, let hint), .localState(_, let hint):
            return hint
        case .weakPassword(_, let hint): return hint ?? "choose a password that meets every requirement listed in causes"
        case .protocolViolation: return "run again with --verbose to see the exchange"
        case .interrupted(_, let hint): return hint ?? "nothing was stored; run the command again to start over"
        case .internalFailure: return "this is a bug in idflow; please report it with the --verbose trace"
        case .stoppedFlow(let flow): return flow.stop.hint
        }
    }

    private static func defaultHint(status: Int, code: String) -> String? {
        switch code {
        case "E0000011" where status == 401:
            return "check the API token (--api-token-file or OKTA_CLIENT_TOKEN) or start the flow again"
        case "E0000004": return "the credentials or one-time token were refused; a used or expired token needs a new `idflow activate`"
        case "E0000007": return "check the id or login; `idflow register` creates users"
        case "E0000016": return "the user is already activated; use `idflow set-password` with the token you have, or reactivate"
        case "E0000080", "E0000014": return "choose a password that meets every requirement listed in causes"
        default: return nil
        }
    }
}
