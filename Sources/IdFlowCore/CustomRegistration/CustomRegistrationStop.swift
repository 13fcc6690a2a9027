import IdFlowFoundation

/// A registration that stopped at a script status other than success: a retry (4xxx, exit 10, the document on
/// stdout names the transaction and step so a script can continue) or a failure (5xxx or out of range, exit 11).
public struct CustomRegistrationStop: Sendable, Equatable, Encodable {
    public var status: Int
    public var step: RegistrationStep
    /// The transaction a retry continues with `--transaction-id`; nil when there is none to continue (a failed
    /// init, a failure, a server that did not name one).
    @NullWhenAbsent public var transactionId: String?
    public var identityProvider: String
    /// What the script sent back, as JSON when it is a JSON object or array, else as a string.
    @NullWhenAbsent public var data: JSONValue?
    /// 4xxx: the same step can be tried again.
    public var recoverable: Bool

    public init(
        status: Int, step: RegistrationStep, transactionId: String?, identityProvider: String, data: JSONValue?, recoverable: Bool
    ) {
        self.status = status
        self.step = step
        self.transactionId = transactionId
        self.identityProvider = identityProvider
        self.data = data
        self.recoverable = recoverable
    }

    enum CodingKeys: String, CodingKey {
        case status, step, transactionId, identityProvider, data
    }

    public var message: String {
        let said = data.map { " (\(Self.describe($0)))" } ?? ""
        return recoverable
            ? "\(identityProvider) answered \(status) at the \(step.rawValue) step\(said): the step can be tried again"
            : "\(identityProvider) answered \(status) at the \(step.rawValue) step\(said): the registration failed and was dropped"
    }

    public var hint: String? {
        guard recoverable else {
            return "start again from the beginning: idflow register --idp \(ShellWord.quote(identityProvider)) …"
        }
        if let transactionId, step == .complete {
            return
                "send other data in the same transaction: idflow register --idp \(ShellWord.quote(identityProvider)) --transaction-id \(ShellWord.quote(transactionId)) --data …"
        }
        return
            "run idflow register --idp \(ShellWord.quote(identityProvider)) again with other \(step == .initialize ? "--init-data" : "--data")"
    }

    /// A one-line rendering of the script's data for messages.
    static func describe(_ data: JSONValue) -> String {
        if let text = data.stringValue { return "\"\(text)\"" }
        guard let encoded = try? JSONOutput.encode(data, style: .compact) else { return "data" }
        return String(decoding: encoded.dropLast(), as: UTF8.self)
    }
}

extension CustomRegistrationStop: FlowStop {
    public var kind: String { recoverable ? "registration_retry" : "registration_failed" }
    public var exitStatus: IdFlowExitCode { recoverable ? .registrationRetry : .registrationRestart }

    /// A recoverable status leaves `{"status", "step", "transactionId", "data", "identityProvider"}` for the script to
    /// continue from; a failure leaves nothing to continue.
    public var standardOutputDocument: (any Encodable & Sendable)? { recoverable ? self : nil }

    /// The provider's status is the error line's code.
    public func describe(in details: inout ErrorReport.Details) { details.errorCode = String(status) }
}

extension IdFlowError {
    /// A custom identity provider's script answered a retry (4xxx) or failure (5xxx, or any other) status.
    public static func customRegistration(_ stop: CustomRegistrationStop) -> IdFlowError { .stopped(stop) }
}
