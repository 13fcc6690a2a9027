import Foundation

/// The one JSON line written to stderr on failure, as docs/contract.md spells it:
/// `{"error": {"kind", "message", "httpStatus", "errorCode", "errorSummary", "errorId", "causes", "hint", "exitCode"}}`.
public struct ErrorReport: Encodable, Sendable, Equatable {
    public struct Details: Encodable, Sendable, Equatable {
        public var kind: String
        public var message: String
        public var httpStatus: Int?
        public var errorCode: String?
        public var errorSummary: String?
        public var errorId: String?
        public var causes: [String]?
        public var hint: String?
        public var exitCode: Int32
    }

    public var error: Details

    public init(_ failure: IdFlowError) {
        error = Details(kind: failure.kind, message: failure.message, exitCode: failure.exitStatus.rawValue)
        error.hint = failure.hint
        switch failure {
        case .okta(let status, let body, _):
            error.httpStatus = status
            error.errorCode = body.errorCode
            error.errorSummary = body.errorSummary
            error.errorId = body.errorId
            error.causes = body.causeSummaries.isEmpty ? nil : body.causeSummaries
        case .oauth(let status, let body, _):
            error.httpStatus = status
            error.errorCode = body.error
            error.errorSummary = body.errorDescription
        case .unexpectedResponse(let status, _, _, _):
            error.httpStatus = status
        case .weakPassword(let causes, _):
            error.causes = causes
        case .stoppedFlow(let flow):
            flow.stop.describe(in: &error)
        case .rateLimited(_, let body):
            error.httpStatus = 429
            error.errorCode = body?.errorCode
            error.errorSummary = body?.errorSummary
        default:
            break
        }
    }
}
