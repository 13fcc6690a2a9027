import Foundation
import IdFlowFoundation

/// A protected resource's answer that was not a success, after idflow did what it may (one refresh and one
/// retry on a 401): the status decides the exit code, the challenge and hint say what to do.
public struct ResourceFailure: FlowStop, Equatable {
    /// The final answer's status.
    public var status: Int
    /// The URL that answered it, redacted.
    public var url: String
    public var message: String
    public var hint: String?
    /// The challenge's `error` (`invalid_token`, `insufficient_scope`), else an OAuth or Okta body's code.
    public var errorCode: String?
    /// The challenge's `error_description`, else the body's.
    public var errorDescription: String?
    /// With `--include`: the whole answer, printed on stdout though the run fails.
    public var document: ResourceResponseDocument?

    public init(
        status: Int, url: String, message: String, hint: String? = nil, errorCode: String? = nil, errorDescription: String? = nil,
        document: ResourceResponseDocument? = nil
    ) {
        self.status = status
        self.url = url
        self.message = message
        self.hint = hint
        self.errorCode = errorCode
        self.errorDescription = errorDescription
        self.document = document
    }

    public var kind: String { "resource_error" }

    /// With `api --include`, `{"status", "headers", "body"}`.
    public var standardOutputDocument: (any Encodable & Sendable)? { document }

    /// The status, and the challenge's (or body's) error and description.
    public func describe(in details: inout ErrorReport.Details) {
        details.httpStatus = status
        details.errorCode = errorCode
        details.errorSummary = errorDescription
    }

    /// docs/contract.md's table by status: 401/403 → 4, 404 → 5, 5xx → 7, any other (4xx, a redirect not followed) → 3.
    public var exitStatus: IdFlowExitCode {
        switch status {
        case 401, 403: return .authentication
        case 404: return .notFound
        case 500...599: return .server
        default: return .rejected
        }
    }
}

/// `api --include`: the answer as a document, `{"status", "headers", "body"}`; header names lower-cased, the body
/// as JSON (a string for text with `--raw`, null when empty).
public struct ResourceResponseDocument: Encodable, Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: JSONValue
}

extension IdFlowError {
    /// A protected resource (`idflow api`) answered with a status other than success; the status decides the code.
    public static func resource(_ failure: ResourceFailure) -> IdFlowError { .stopped(failure) }
}
