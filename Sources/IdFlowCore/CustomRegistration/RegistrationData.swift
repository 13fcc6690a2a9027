import Foundation

/// Where one step's data comes from, as `--data`/`--init-data` say it: the text itself, `@FILE`, or `-`
/// (standard input, also `--data-stdin`). The data is opaque: it is sent as the string it is, whatever it holds.
public enum RegistrationData: Sendable, Equatable {
    case text(String)
    case file(String)
    case standardInput

    /// `@FILE` names a file, `-` standard input, anything else is the data itself.
    public init(argument: String) {
        if argument == "-" {
            self = .standardInput
        } else if argument.hasPrefix("@"), argument.count > 1 {
            self = .file(String(argument.dropFirst()))
        } else {
            self = .text(argument)
        }
    }

    /// Reads the data; a file or standard input loses one trailing newline, as `echo` and here-strings add it.
    func read(_ what: String, _ secrets: SecretReader) throws(IdFlowError) -> String {
        switch self {
        case .text(let text): return text
        case .file(let path): return try secrets.read(what, from: .file(path)).value
        case .standardInput: return try secrets.read(what, from: .standardInput).value
        }
    }
}
