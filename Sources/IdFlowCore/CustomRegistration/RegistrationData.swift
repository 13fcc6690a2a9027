import Foundation
import IdFlowFoundation

/// Where one step's data comes from, as `--data`/`--init-data` say it: the text itself, `@FILE`, or `-`
/// (standard input, also `--data-stdin`). The data is opaque: it is sent as the string it is, whatever it holds.
public enum RegistrationData: Sendable, Equatable {
    /// The data as a program gave it (the demo).
    case text(String)
    /// The data typed on the command line, which other users can read in `ps`: warned about when read.
    case argument(String)
    case file(String)
    case standardInput

    /// `@FILE` names a file, `-` standard input, anything else is the data itself.
    public init(argument: String) {
        if argument == "-" {
            self = .standardInput
        } else if argument.hasPrefix("@"), argument.count > 1 {
            self = .file(String(argument.dropFirst()))
        } else {
            self = .argument(argument)
        }
    }

    /// Reads the data; a file or standard input loses one trailing newline, as `echo` and here-strings add it.
    func read(_ what: String, _ secrets: SecretReader) throws(IdFlowError) -> String {
        switch self {
        case .text(let text): return text
        case .argument(let text):
            // Registration data is often a secret (an invite code, a texted code); an empty one is the script's to judge.
            secrets.warn(
                "warning: the \(what) given on the command line is visible to other users in `ps`; prefer --data-stdin or --data @FILE")
            return text
        case .file(let path):
            return try secrets.read(
                what, fromFileNamedAfterAt: path,
                hint: "give an existing file as @FILE, or send data that starts with @ through --data-stdin"
            ).value
        case .standardInput: return try secrets.read(what, from: .standardInput).value
        }
    }
}
