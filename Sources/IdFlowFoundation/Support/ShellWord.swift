/// Shell text built from pieces the script controls and pieces it must never interpret.
///
/// Every value that reaches a `--curl` script came from a person or a server, so none is trusted as shell
/// syntax: literal text is single-quoted (a quote inside becomes `'\''`, and nothing else is special there, not
/// `$()`, backticks or newlines), and a secret is only ever `"$NAME"`, the value staying in the variable.
public enum ShellWord {
    /// One piece of a word: text taken as it is, or a variable expanded in double quotes.
    public enum Segment: Equatable, Sendable {
        case literal(String)
        case variable(String)
    }

    /// `text` as one single-quoted shell word, whatever it holds.
    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The segments as one shell word: `'lit'"$NAME"'lit'`.
    public static func word(_ segments: [Segment]) -> String {
        let merged = merge(segments)
        if merged.isEmpty { return "''" }
        return merged.map { segment in
            switch segment {
            case .literal(let text): quote(text)
            case .variable(let name): "\"$\(name)\""
            }
        }.joined()
    }

    /// A `printf` (a bash builtin, so no value shows in `ps`) that writes the segments joined, with a final newline
    /// when asked; a secret reaches a pipe or a file this way without being a program's argument.
    public static func printf(_ segments: [Segment], newline: Bool = false) -> String {
        let merged = merge(segments)
        let format = String(repeating: "%s", count: max(1, merged.count)) + (newline ? "\\n" : "")
        let words = merged.isEmpty ? ["''"] : merged.map { word([$0]) }
        return "printf '\(format)' " + words.joined(separator: " ")
    }

    /// Adjacent literals joined, empty ones dropped.
    package static func merge(_ segments: [Segment]) -> [Segment] {
        var result: [Segment] = []
        for segment in segments {
            if case .literal(let text) = segment {
                if text.isEmpty { continue }
                if case .literal(let previous)? = result.last {
                    result[result.count - 1] = .literal(previous + text)
                    continue
                }
            }
            result.append(segment)
        }
        return result
    }

    /// Whether segments name any variable (and so cannot be written as one plain quoted word).
    package static func hasVariable(_ segments: [Segment]) -> Bool {
        segments.contains { if case .variable = $0 { true } else { false } }
    }

    /// Text safe inside a comment or a `${NAME:?message}`: one line, none of `$`, backticks, quotes, braces or backslashes.
    public static func commentText(_ text: String) -> String {
        String(
            text.map { character -> Character in
                if character.isNewline { return " " }
                return "$`\"'\\{}".contains(character) ? "_" : character
            })
    }
}
