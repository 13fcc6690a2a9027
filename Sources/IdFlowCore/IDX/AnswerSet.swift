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
                    values[name] = try reader.read(
                        name, fromFileNamedAfterAt: String(path.dropFirst()),
                        hint: "give an existing file as \(name)=@FILE, or send a value that starts with @ through \(name)=@- (stdin)"
                    ).value
                default:
                    if isSecret(name) {
                        reader.warn(
                            "warning: the answer for \(name) given on the command line is visible to other users in `ps`; "
                                + "prefer \(name)=@- (stdin) or \(name)=@FILE")
                    }
                    values[name] = raw
                }
            }
            return AnswerSet(values)
        }

        /// The fields whose values are secrets in the Identity Engine's forms (a password, an e-mailed or texted
        /// code, a TOTP, a security answer), by the last part of their path.
        static let secretFieldNames: Set<String> = ["passcode", "password", "answer", "totp", "otp", "pin", "secret"]

        static func isSecret(_ path: String) -> Bool {
            secretFieldNames.contains(String(path.split(separator: ".").last ?? "").lowercased())
        }

        /// The field names of Okta's Identity Engine forms (every input of the recorded documents, and the
        /// sign-up profile's and credentials' open-ended members), for telling a misspelt answer from one meant
        /// for a later form.
        static let identityEngineFieldNames: Set<String> = [
            "identifier", "rememberMe", "credentials", "authenticator", "authenticator.id", "authenticator.methodType",
            "authenticator.channel", "authenticator.phoneNumber", "authenticator.enrollmentId", "methodType", "phoneNumber",
            "channel", "userProfile", "consent",
        ]

        static func isIdentityEngineFieldName(_ path: String) -> Bool {
            identityEngineFieldNames.contains(path) || path.hasPrefix("credentials.") || path.hasPrefix("userProfile.")
        }

        public subscript(path: String) -> String? { values[path] }

        /// The answer for a field: by its path, else (for a field inside another) by its own name alone, so
        /// `methodType=voice` answers `authenticator.methodType` as the issue's runbooks write it.
        func lookup(_ path: String) -> (name: String, value: String)? {
            if let value = values[path] { return (path, value) }
            guard let dot = path.lastIndex(of: ".") else { return nil }
            let bare = String(path[path.index(after: dot)...])
            return values[bare].map { (bare, $0) }
        }

        public var names: Set<String> { Set(values.keys) }

        /// Adds the answer a person typed at a prompt.
        public mutating func answer(_ path: String, with value: String) {
            values[path] = value
        }

        /// Adds an answer a flag gave (`--username` for `identifier`); the same field given by `--answer` too is an error.
        public mutating func add(_ path: String, _ value: String, flag: String) throws(IdFlowError) {
            guard lookup(path) == nil else {
                throw .invalidInput("\(path) is given twice, by \(flag) and by --answer", hint: "give it one way")
            }
            values[path] = value
        }

        /// Spends the answers a sent form carried.
        public mutating func spend(_ paths: Set<String>) {
            for path in paths { values[path] = nil }
        }
    }
}
