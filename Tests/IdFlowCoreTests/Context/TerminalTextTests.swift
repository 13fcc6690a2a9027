import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// What a server writes never drives the person's terminal: control characters in a human line show as `\xNN`.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}]0;pwned\u{07}WDJB-MJHT", "\\x1B]0;pwned\\x07WDJB-MJHT"),
        ("before\u{1B}[2Jafter", "before\\x1B[2Jafter"),
        ("approved\rdenied", "approved\\x0Ddenied"),
        ("C1 \u{9B}31m", "C1 \\x9B31m"),
        ("del\u{7F}", "del\\x7F"),
    ])
    func controlCharactersAreShownNotObeyed(raw: String, shown: String) {
        #expect(TerminalText.safe(raw) == shown)
    }

    @Test func plainTextNewlinesTabsAndOtherScriptsPassUnchanged() {
        let text = "Waiting for the sign-in…\n\tcode: ÄBC-日本 ✔"
        #expect(TerminalText.safe(text) == text)
    }

    @Test func aConsoleLineNeverCarriesAnEscapeToTheTerminal() {
        let stderr = Locked(Data())
        let console = Console(
            standardOutput: { _ in }, standardError: { data in stderr.withLock { $0.append(data) } }, readStandardInput: { Data() },
            readLine: { nil })
        console.line("idx: \u{1B}]0;owned\u{07}\u{1B}[2JInvalid code")
        let written = String(decoding: stderr.current, as: UTF8.self)
        #expect(!written.contains("\u{1B}") && !written.contains("\u{07}"))
        #expect(written == "idx: \\x1B]0;owned\\x07\\x1B[2JInvalid code\n")
    }
}
