import Foundation

/// A document a command prints on stdout whatever the outcome, and the exit code the run ends with.
///
/// A diagnostic (a health report with a failed check) is an answer, not an error: the script reads the whole
/// document and branches on the code, so no error line is written beside it. A flow returns one of these
/// instead of throwing when the document, not the first failure, is what its caller needs.
public struct CommandReport<Document: Encodable & Sendable>: Encodable, Sendable {
    public var document: Document
    public var exitStatus: IdFlowExitCode

    public init(_ document: Document, exitStatus: IdFlowExitCode) {
        self.document = document
        self.exitStatus = exitStatus
    }

    /// Encodes as the document alone: the exit code is the process's, not a key.
    public func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
    }
}

/// A command result that decides the run's exit code itself (`CommandReport`); every other result means success.
public protocol ExitStatusReporting {
    var exitStatus: IdFlowExitCode { get }
}

extension CommandReport: ExitStatusReporting {}

/// A command result printed as bytes rather than encoded: `api` prints a JSON body as the server sent it (its
/// numbers and key order intact) and, with `--raw`, a body that is not JSON. Nil falls back to encoding.
public protocol RawStandardOutput {
    var standardOutputBytes: Data? { get }
}
