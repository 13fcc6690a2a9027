import Foundation

extension IDX {
    /// What a script gets on stdout (exit 3) when a form needs an answer it did not give.
    public struct PendingForm: Sendable, Equatable, Encodable {
        /// The transaction `--resume` continues.
        public var transaction: String?
        public var remediation: String
        public var fields: [PendingField]
        public var messages: [Message]

        enum CodingKeys: String, CodingKey { case transaction, remediation, fields, messages }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transaction, forKey: .transaction)
            try container.encode(remediation, forKey: .remediation)
            try container.encode(fields, forKey: .fields)
            try container.encode(messages, forKey: .messages)
        }

        var message: String {
            let names = fields.filter(\.required).map(\.name)
            let what = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
            return "the sign-in needs answers for \(remediation)\(what) that were not given"
        }
    }
}
