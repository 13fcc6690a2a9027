import Foundation

/// The process's standard streams as values, so a command run in-process by a test writes where the test
/// reads, and nothing reaches the real stdout behind the JSON contract's back.
public struct Console: Sendable {
    /// The JSON contract: one document per run, nothing else.
    public var standardOutput: @Sendable (Data) -> Void
    /// Everything human: messages, prompts, progress, the trace, the error line.
    public var standardError: @Sendable (Data) -> Void
    /// All of standard input, for secrets piped in.
    public var readStandardInput: @Sendable () -> Data
    /// One line of standard input, for answers typed at a prompt (`login-pkce --manual`).
    public var readLine: @Sendable () -> String?
    /// Whether a person is at the keyboard (stdin and stderr are terminals), so a flow may ask again instead
    /// of failing; a script never gets a prompt it cannot answer.
    public var isInteractive: Bool
    /// Whether stderr is a terminal, so progress drawn in place (`register --batch`) is seen by a person and
    /// never lands in a log file.
    public var showsProgress: Bool
    /// Whether stderr is a terminal that understands the ANSI erase-line sequence (`ESC[K`): not when
    /// `TERM=dumb` (Emacs shells, some CI consoles) or unset, where progress is overwritten with spaces instead.
    public var erasesLines: Bool
    /// Shows the prompt on the terminal and reads one line without echoing it; nil when nothing was typed.
    public var promptSecret: @Sendable (String) -> String?
    /// Shows the prompt on the terminal and reads one line with echo (a username, a menu choice); nil when
    /// nothing was typed.
    public var promptLine: @Sendable (String) -> String?

    public init(
        standardOutput: @escaping @Sendable (Data) -> Void, standardError: @escaping @Sendable (Data) -> Void,
        readStandardInput: @escaping @Sendable () -> Data, readLine: @escaping @Sendable () -> String?, isInteractive: Bool = false,
        promptSecret: @escaping @Sendable (String) -> String? = { _ in nil }, showsProgress: Bool = false,
        promptLine: (@Sendable (String) -> String?)? = nil, erasesLines: Bool? = nil
    ) {
        self.erasesLines = erasesLines ?? showsProgress
        self.promptLine = promptLine ?? promptSecret
        self.showsProgress = showsProgress
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
        self.readLine = readLine
        self.isInteractive = isInteractive
        self.promptSecret = promptSecret
    }

    /// The real process's streams. A write that fails (a stream redirected to a full disk, or past `ulimit -f`) is
    /// dropped: `FileHandle.write` would trap on it, ending a run that has handled its failure (and kept its tokens)
    /// by a signal instead of its exit code.
    public static let live = Console(
        standardOutput: { _ = writeAll($0, to: STDOUT_FILENO) }, standardError: { _ = writeAll($0, to: STDERR_FILENO) },
        readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() }, readLine: { Swift.readLine(strippingNewline: true) },
        isInteractive: isatty(0) == 1 && isatty(2) == 1,
        promptSecret: { prompt in
            // Reads from the terminal with echo off, whatever stdin was redirected from; Ctrl-C still works.
            TerminalPrompt.ask(TerminalText.safe(prompt), echo: false)
        }, showsProgress: isatty(2) == 1, promptLine: { prompt in TerminalPrompt.ask(TerminalText.safe(prompt), echo: true) },
        erasesLines: isatty(2) == 1 && understandsANSI(ProcessInfo.processInfo.environment["TERM"]))

    /// Whether a terminal of this `TERM` takes ANSI control sequences: anything named but `dumb`.
    public static func understandsANSI(_ term: String?) -> Bool {
        guard let term, !term.isEmpty else { return false }
        return term != "dumb"
    }

    /// Writes one human line to stderr, with any control character a server slipped into it made visible.
    public func line(_ text: String) {
        standardError(Data((TerminalText.safe(text) + "\n").utf8))
    }

    /// Reports a failure on stderr: the contract's JSON error line, always last. At a terminal (`showsProgress`:
    /// stderr is one) a person first reads it in words, `error: …` and `hint: …`; a script's stderr is not a
    /// terminal and sees the JSON line alone, as before.
    public func fail(_ error: IdFlowError) {
        if showsProgress {
            line("error: \(error.message)")
            if let hint = error.hint { line("hint: \(hint)") }
        }
        standardError(JSONOutput.errorLine(error))
    }
}
