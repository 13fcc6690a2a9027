import Foundation

extension IDX {
    /// The answers a script gave with `--answer name=value`, keyed by field path (`identifier`,
    /// `credentials.passcode`, `authenticator`). `name=@FILE` reads the value from a file and `name=@-` from
    /// standard input (once per run). Each answer fills one field once: once a form carrying it has been
    /// sent, it is spent, so a password is never offered again for a later e-mailed code.
    public struct AnswerSet: Sendable, Equatable {
        private var values: [String: String]

        public init(_ values: [String: String] = [:]) {
            self.values = values
        }

        /// Parses `--answer` arguments, reading `@FILE` and `@-` through `reader` (one trailing newline dropped).
        public static func parse(_ arguments: [String], reader: SecretReader) throws(IdFlowError) -> AnswerSet {
            var values: [String: String] = [:]
            var usedStandardInput = false
            for argument in arguments {
                guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                    throw .invalidInput("the answer \"\(argument)\" is not name=value", hint: "e.g. --answer identifier=jo@example.com")
                }
                let name = String(argument[..<equals])
                let raw = String(argument[argument.index(after: equals)...])
                guard values[name] == nil else {
                    throw .invalidInput("\(name) is answered twice", hint: "give each field one --answer")
                }
                switch raw {
                case "@-":
                    guard !usedStandardInput else {
                        throw .invalidInput(
                            "only one answer can be read from standard input (@-)", hint: "read the others from files (@FILE)")
                    }
                    usedStandardInput = true
                    values[name] = try reader.read(name, from: .standardInput).value
                case let path where path.hasPrefix("@") && path.count > 1:
                    values[name] = try reader.read(name, from: .file(String(path.dropFirst()))).value
                default:
                    values[name] = raw
                }
            }
            return AnswerSet(values)
        }

        public subscript(path: String) -> String? { values[path] }

        public var names: Set<String> { Set(values.keys) }

        /// Adds the answer a person typed at a prompt.
        public mutating func answer(_ path: String, with value: String) {
            values[path] = value
        }

        /// Spends the answers a sent form carried.
        public mutating func spend(_ paths: Set<String>) {
            for path in paths { values[path] = nil }
        }
    }
}
