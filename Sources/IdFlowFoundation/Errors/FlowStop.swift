import Foundation

/// A family's own way for a run to stop: an embedded sign-in's pending form, a custom identity provider's
/// status, a batch with failed lines, a protected resource's refusal. The foundation's `IdFlowError` carries any
/// of them (`.stopped`) without knowing the families; each says how it is reported, and may leave a document on
/// standard output that a script continues from.
public protocol FlowStop: Error, Sendable {
    /// The `kind` of the error line (`answer_required`, `registration_retry`, …).
    var kind: String { get }
    /// A sentence a person can act on.
    var message: String { get }
    /// What to do next, when the family knows.
    var hint: String? { get }
    var exitStatus: IdFlowExitCode { get }
    /// What is printed on standard output besides the error line; nil for nothing.
    var standardOutputDocument: (any Encodable & Sendable)? { get }
    /// Adds what the error line says beyond kind, message and hint (an HTTP status, an error code).
    func describe(in details: inout ErrorReport.Details)
    /// Whether `other` is the same stop (errors are compared in tests).
    func isSame(as other: any FlowStop) -> Bool
}

extension FlowStop {
    public var standardOutputDocument: (any Encodable & Sendable)? { nil }
    public func describe(in details: inout ErrorReport.Details) {}
}

extension FlowStop where Self: Equatable {
    public func isSame(as other: any FlowStop) -> Bool { (other as? Self) == self }
}

/// A `FlowStop` inside `IdFlowError`, compared through `isSame(as:)` so the error stays `Equatable`.
public struct StoppedFlow: Sendable, Equatable {
    public let stop: any FlowStop

    public init(_ stop: any FlowStop) { self.stop = stop }

    public static func == (lhs: StoppedFlow, rhs: StoppedFlow) -> Bool { lhs.stop.isSame(as: rhs.stop) }
}

extension IdFlowError {
    /// `stop` as an error.
    public static func stopped(_ stop: any FlowStop) -> IdFlowError { .stoppedFlow(StoppedFlow(stop)) }

    /// The family's stop this error carries, if it is one of type `Stop`.
    public func stop<Stop: FlowStop>(as type: Stop.Type = Stop.self) -> Stop? {
        guard case .stoppedFlow(let flow) = self else { return nil }
        return flow.stop as? Stop
    }
}
