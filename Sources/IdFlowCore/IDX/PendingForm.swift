import Foundation

extension IDX {
    /// What a script gets on stdout (exit 3) when a form needs an answer it did not give.
    public struct PendingForm: Sendable, Equatable, Encodable {
        /// The transaction `--resume` continues.
        @NullWhenAbsent public var transaction: String?
        public var remediation: String
        public var fields: [PendingField]
        public var messages: [Message]

        var message: String {
            let names = fields.filter(\.required).map(\.name)
            let what = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
            return "the sign-in needs answers for \(remediation)\(what) that were not given"
        }
    }
}
