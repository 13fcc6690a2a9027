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

    public init(
        standardOutput: @escaping @Sendable (Data) -> Void, standardError: @escaping @Sendable (Data) -> Void,
        readStandardInput: @escaping @Sendable () -> Data, readLine: @escaping @Sendable () -> String?
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
        self.readLine = readLine
    }

    /// The real process's streams.
    public static let live = Console(
        standardOutput: { FileHandle.standardOutput.write($0) }, standardError: { FileHandle.standardError.write($0) },
        readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() }, readLine: { Swift.readLine(strippingNewline: true) })

    /// Writes one human line to stderr.
    public func line(_ text: String) {
        standardError(Data((text + "\n").utf8))
    }
}
