import Foundation

/// Text shown to a person on a terminal, much of it written by a server (a user code, an Identity Engine
/// message, a form label, an error summary). A control character in it (ESC starting a sequence that retitles
/// or clears the terminal, BEL, a carriage return that overwrites what the line said, the C1 controls) is shown
/// as a visible `\xNN` instead of reaching the terminal. Newlines and tabs pass. JSON on stdout is never
/// touched: it is exact, and its encoder escapes control characters itself.
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                shown.append(contentsOf: String(format: "\\x%02X", scalar.value).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// C0 (but newline and tab), DEL and C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}
