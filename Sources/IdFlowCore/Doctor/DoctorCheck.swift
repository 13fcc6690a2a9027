import Foundation
import IdFlowFoundation

/// One finding of `idflow doctor`: `{"name", "status", "detail", "fix"?}` (docs/contract.md).
public struct DoctorCheck: Encodable, Sendable, Equatable {
    public enum Status: String, Encodable, Sendable {
        case ok, warn, fail, skipped
    }

    public var name: String
    public var status: Status
    public var detail: String
    /// What to do about a failure or a warning.
    public var fix: String?
    /// The kind of a failure, as the exit code it stands for (security, credentials, network, local state,
    /// configuration rejected); not part of the document.
    public var kind: IdFlowExitCode?

    public init(_ name: String, _ status: Status, _ detail: String, fix: String? = nil, kind: IdFlowExitCode? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
        self.kind = kind
    }

    enum CodingKeys: String, CodingKey {
        case name, status, detail, fix
    }

    /// A failed check made of an error: its message as the detail, its hint as the fix, its exit code as the kind.
    public static func failed(_ name: String, _ error: IdFlowError, kind: IdFlowExitCode? = nil) -> DoctorCheck {
        DoctorCheck(name, .fail, error.message, fix: error.hint, kind: kind ?? Self.kind(of: error))
    }

    /// The contract's failure kinds: a security failure (13), credentials (4), network (6), local state (12),
    /// else a rejected configuration (3).
    static func kind(of error: IdFlowError) -> IdFlowExitCode {
        switch error.exitStatus {
        case .security: return .security
        case .authentication: return .authentication
        case .network, .timedOut: return .network
        case .localState: return .localState
        default: return .rejected
        }
    }
}

/// `doctor`'s document: `{"ok", "checks"}`.
public struct DoctorReport: Encodable, Sendable, Equatable {
    public var ok: Bool
    public var checks: [DoctorCheck]

    public init(checks: [DoctorCheck]) {
        self.checks = checks
        ok = !checks.contains { $0.status == .fail }
    }

    /// The failure kinds from the most severe down.
    static let severity: [IdFlowExitCode] = [.security, .authentication, .network, .localState, .rejected]

    /// 0 when no check failed, else the code of the most severe failed check's kind.
    public var exitStatus: IdFlowExitCode {
        let kinds = Set(checks.filter { $0.status == .fail }.map { $0.kind ?? .rejected })
        return Self.severity.first(where: kinds.contains) ?? (kinds.isEmpty ? .success : .rejected)
    }
}
