import Foundation
import IdFlowFoundation

extension IDX {
    /// What a script gets on stdout (exit 3) when a form needs an answer it did not give.
    public struct PendingForm: Sendable, Equatable, Encodable {
        /// The transaction `--resume` continues.
        @NullWhenAbsent public var transaction: String?
        public var remediation: String
        public var fields: [PendingField]
        public var messages: [Message]
        /// What to add to the command when the form cannot be answered from the listed fields alone (an
        /// enrollment's seed); the error line's hint, not part of the printed document.
        public var formHint: String?

        public init(transaction: String?, remediation: String, fields: [PendingField], messages: [Message], hint: String? = nil) {
            self.transaction = transaction
            self.remediation = remediation
            self.fields = fields
            self.messages = messages
            self.formHint = hint
        }

        enum CodingKeys: String, CodingKey { case transaction, remediation, fields, messages }

        public var message: String {
            let names = fields.filter(\.required).map(\.name)
            let what = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
            return "the sign-in needs answers for \(remediation)\(what) that were not given"
        }
    }
}

extension IDX.PendingForm: FlowStop {
    public var kind: String { "answer_required" }
    public var exitStatus: IdFlowExitCode { .rejected }

    /// The form's own hint, or how to answer the listed fields; with the transaction to resume.
    public var hint: String? {
        let resume = transaction.map { " and --resume \($0)" } ?? ""
        if let formHint { return formHint + resume }
        return "answer the fields listed on standard output with --answer name=value (name=@FILE, name=@- for stdin)\(resume)"
    }

    /// `{"transaction", "remediation", "fields", "messages"}`, which a script answers and resumes from.
    public var standardOutputDocument: (any Encodable & Sendable)? { self }
}

extension IdFlowError {
    /// An embedded sign-in stopped at a form a script gave no answer for (exit 3).
    public static func idxPending(_ pending: IDX.PendingForm) -> IdFlowError { .stopped(pending) }

    /// The pending form, when this error is one.
    public var idxPending: IDX.PendingForm? { stop(as: IDX.PendingForm.self) }
}
