import Foundation

/// Where the user chose to supply one secret from. Argv is accepted but warned about: other users of the
/// machine can read it with `ps`.
public enum SecretSource: Sendable, Equatable {
    case standardInput
    case file(String)
    case environment(String)
    case argument(String)
}

/// Reads secrets from their source; stdin and warnings are injected so tests drive them.
public struct SecretReader: Sendable {
    public var readStandardInput: @Sendable () -> Data
    public var environment: [String: String]
    public var warn: @Sendable (String) -> Void

    public init(
        readStandardInput: @escaping @Sendable () -> Data, environment: [String: String], warn: @escaping @Sendable (String) -> Void
    ) {
        self.readStandardInput = readStandardInput
        self.environment = environment
        self.warn = warn
    }

    /// Reads `what` (e.g. "password") from `source`. One trailing newline is dropped, as `echo` and editors add it.
    public func read(_ what: String, from source: SecretSource) throws(IdFlowError) -> Secret {
        let raw: String
        switch source {
        case .standardInput:
            guard let text = String(data: readStandardInput(), encoding: .utf8) else {
                throw .invalidInput("the \(what) on standard input is not UTF-8 text")
            }
            raw = text
        case .file(let path):
            guard let text = contents(ofFile: path) else {
                throw .invalidInput(
                    "cannot read the \(what) from \(path)", hint: InputFile.whyUnreadable(path, environment: environment))
            }
            raw = text
        case .environment(let name):
            guard let value = environment[name] else {
                throw .configuration("\(name) is not set", hint: "export \(name) or pass the \(what) another way")
            }
            raw = value
        case .argument(let value):
            warn("warning: a \(what) given on the command line is visible to other users in `ps`; prefer the -stdin or -file option")
            raw = value
        }
        return try Self.secret(raw, what)
    }

    /// Reads `what` from the file an `@FILE` argument names. A file that cannot be read is not named in the error:
    /// what followed the @ may have been meant as the value itself (a password or code that starts with @).
    public func read(_ what: String, fromFileNamedAfterAt path: String, hint: String) throws(IdFlowError) -> Secret {
        guard let text = contents(ofFile: path) else {
            throw .invalidInput(
                "cannot read the \(what) from the file named after @ (not repeated here, in case it was the value itself)", hint: hint)
        }
        return try Self.secret(text, what)
    }

    /// What was read, less one trailing newline; an empty value is refused whatever its source.
    private static func secret(_ raw: String, _ what: String) throws(IdFlowError) -> Secret {
        let trimmed = dropTrailingNewline(raw)
        guard !trimmed.isEmpty else {
            throw .invalidInput("the \(what) is empty", hint: "supply a non-empty \(what)")
        }
        return Secret(trimmed)
    }

    private func contents(ofFile path: String) -> String? {
        InputFile.read(path, environment: environment).flatMap { String(data: $0, encoding: .utf8) }
    }

    static func dropTrailingNewline(_ text: String) -> String {
        if text.hasSuffix("\r\n") { return String(text.dropLast(2)) }
        if text.hasSuffix("\n") { return String(text.dropLast()) }
        return text
    }
}
