import Foundation

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
        public var hint: String?

        public init(transaction: String?, remediation: String, fields: [PendingField], messages: [Message], hint: String? = nil) {
            self.transaction = transaction
            self.remediation = remediation
            self.fields = fields
            self.messages = messages
            self.hint = hint
        }

        enum CodingKeys: String, CodingKey { case transaction, remediation, fields, messages }

        var message: String {
            let names = fields.filter(\.required).map(\.name)
            let what = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
            return "the sign-in needs answers for \(remediation)\(what) that were not given"
        }
    }
}
