import Foundation
import IdFlowFoundation

extension IDX {
    /// The answers a script gave with `--answer name=value`, keyed by field path (`identifier`,
    /// `credentials.passcode`, `authenticator`). `name=@FILE` reads the value from a file and `name=@-` from
    /// standard input (once per run). Each answer fills one field once: once a form carrying it has been
    /// sent, it is spent, so a password is never offered again for a later e-mailed code.
    ///
    /// `AUTHENTICATOR:NAME=value` scopes an answer to the forms of one authenticator, named as `authenticator=`
    /// names it (key, type, label or id): `google_otp:credentials.passcode=123456`. The password, the e-mailed
    /// code and an authenticator app's code all go in `credentials.passcode`, so unscoped that field is the
    /// password's, the one secret a script knows before the run; the code of another authenticator is an answer
    /// scoped to it, computed from `--totp-secret-file`, or the answer of a `--resume` at that code's form.
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
                if let colon = name.firstIndex(of: ":"), colon == name.startIndex || name.index(after: colon) == name.endIndex {
                    throw .invalidInput(
                        "the answer \"\(name)\" is not AUTHENTICATOR:name", hint: "e.g. --answer google_otp:credentials.passcode=@FILE")
                }
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
            secretFieldNames.contains(String(field(of: path).split(separator: ".").last ?? "").lowercased())
        }

        /// The field an answer's name fills, without the authenticator it may be scoped to.
        static func field(of name: String) -> String {
            name.firstIndex(of: ":").map { String(name[name.index(after: $0)...]) } ?? name
        }

        /// The authenticator an answer's name is scoped to, if any.
        static func scope(of name: String) -> String? {
            name.firstIndex(of: ":").map { String(name[..<$0]) }
        }

        /// The field every authenticator with a secret shares (the password, e-mailed and texted codes, an
        /// authenticator app's code), by path and by its own name: unscoped, it is the password's.
        static let sharedFields: Set<String> = ["credentials.passcode", "passcode"]

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

        /// The answer for a field of a form about `authenticator` (nil: about none known): by its path, else (for
        /// a field inside another) by its own name alone, so `methodType=voice` answers `authenticator.methodType`
        /// as the issue's runbooks write it. An answer scoped to the authenticator comes first; an unscoped shared
        /// field (`credentials.passcode`) answers only the password's form, or one about no known authenticator.
        func lookup(_ path: String, for authenticator: FormAuthenticator? = nil) -> (name: String, value: String)? {
            var candidates = [path]
            if let dot = path.lastIndex(of: ".") { candidates.append(String(path[path.index(after: dot)...])) }
            for candidate in candidates {
                if let authenticator,
                    let scoped = values.sorted(by: { $0.key < $1.key }).first(where: {
                        Self.field(of: $0.key) == candidate && Self.scope(of: $0.key).map(authenticator.isNamed) == true
                    })
                {
                    return (scoped.key, scoped.value)
                }
                guard let value = values[candidate] else { continue }
                if Self.sharedFields.contains(candidate), let authenticator, !authenticator.isPassword { continue }
                return (candidate, value)
            }
            return nil
        }

        public var names: Set<String> { Set(values.keys) }

        /// Adds the answer a person typed at a prompt.
        public mutating func answer(_ path: String, with value: String) {
            values[path] = value
        }

        /// Adds an answer for a form about `authenticator`, scoped to it where an unscoped one would not answer
        /// it; returns the name it is kept under (to spend it later).
        @discardableResult
        mutating func answer(_ path: String, with value: String, for authenticator: FormAuthenticator?) -> String {
            var name = path
            if let authenticator, Self.sharedFields.contains(path), !authenticator.isPassword { name = "\(authenticator.scope):\(path)" }
            values[name] = value
            return name
        }

        /// An unscoped shared answer (`credentials.passcode`) handed to `authenticator`: a `--resume` at that
        /// authenticator's form answers the code the stopped run asked for.
        mutating func scopeShared(to authenticator: FormAuthenticator) {
            guard !authenticator.isPassword else { return }
            for path in Self.sharedFields {
                guard let value = values.removeValue(forKey: path) else { continue }
                values["\(authenticator.scope):\(path)"] = value
            }
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
