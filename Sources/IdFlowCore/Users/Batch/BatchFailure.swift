import Foundation
import IdFlowFoundation

/// Some lines of a `register --batch` failed: each failed line carries its own error on stdout, and the run ends
/// with the code of the most severe (`BatchRegistration.mostSevere`).
public struct BatchFailure: FlowStop, Equatable {
    public var failed: Int
    public var lines: Int
    public var exitStatus: IdFlowExitCode
    /// When the batch knows better than "fix the failed lines" (the org stopped answering).
    public var batchHint: String?

    public init(failed: Int, lines: Int, exitStatus: IdFlowExitCode, hint: String? = nil) {
        self.failed = failed
        self.lines = lines
        self.exitStatus = exitStatus
        self.batchHint = hint
    }

    public var kind: String { "batch_failed" }

    public var message: String {
        "\(failed) of \(lines) lines failed; each failed line's error is on its line of standard output"
    }

    public var hint: String? {
        batchHint ?? "fix the failed lines and run the batch again with --skip-existing; `jq 'select(.ok | not)'` lists them"
    }
}

extension IdFlowError {
    /// Some lines of a `register --batch` failed.
    public static func batchFailed(failed: Int, lines: Int, exitStatus: IdFlowExitCode, hint: String? = nil) -> IdFlowError {
        .stopped(BatchFailure(failed: failed, lines: lines, exitStatus: exitStatus, hint: hint))
    }
}
