import Foundation

/// How stdout's JSON is laid out: pretty on a terminal, compact in a pipe, unless the user forces one.
public enum OutputStyle: String, Sendable, CaseIterable {
    case pretty
    case compact

    /// Pretty when `descriptor` is a terminal.
    public static func automatic(descriptor: Int32 = 1) -> OutputStyle {
        isatty(descriptor) == 1 ? .pretty : .compact
    }
}

/// Encodes results once, centrally, so every command's stdout has the same conventions: sorted keys,
/// unescaped slashes, one document ending in a newline.
public enum JSONOutput {
    public static func encode(_ value: some Encodable, style: OutputStyle) throws(IdFlowError) -> Data {
        if style == .compact, let writable = value as? any CompactJSONWritable, var bytes = writable.compactJSON() {
            bytes.append(0x0A)
            return Data(bytes)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let compact = try encoder.encode(value)
            var data = style == .pretty ? Data(JSONLayout.pretty([UInt8](compact))) : compact
            data.append(0x0A)
            return data
        } catch {
            throw .internalFailure("cannot encode the result as JSON: \(error)")
        }
    }

    /// The error line for stderr: always compact, one line.
    public static func errorLine(_ error: IdFlowError) -> Data {
        (try? encode(ErrorReport(error), style: .compact)) ?? Data("{\"error\":{\"kind\":\"internal\"}}\n".utf8)
    }
}

/// A value that writes its own compact JSON, byte for byte what `JSONOutput.encode(_:style: .compact)` would
/// give through `JSONEncoder` (without the newline), or nil to leave it to the encoder: `register --batch`'s
/// output lines, where an encoder per line was a sixth of the client's CPU.
public protocol CompactJSONWritable {
    func compactJSON() -> [UInt8]?
}
