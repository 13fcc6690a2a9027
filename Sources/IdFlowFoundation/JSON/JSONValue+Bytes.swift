import Foundation

/// JSON text straight to and from `JSONValue`, without `JSONDecoder`/`JSONEncoder` in between.
///
/// `register --batch` reads every user the server returns into a `JSONValue` and writes it out again: through
/// Foundation's coders that was most of the client's own CPU per user (the `Codable` machinery, and a thrown
/// error for each wrong guess of a value's kind). Both directions here give what the coders give: the parser
/// accepts what `JSONDecoder` accepts (RFC 8259 JSON, and a trailing comma; a repeated key keeps its first value),
/// and the writer produces byte for byte what `JSONOutput`'s compact encoder produces (keys sorted by their
/// UTF-8 bytes, slashes unescaped, integral numbers without a fraction) or declines (`nil`) for what it does not
/// spell the same way (a number with a fraction), so the caller falls back to the encoder.
extension JSONValue {
    /// Parses one complete JSON text; throws `DecodingError.dataCorrupted` for anything else.
    public init(parsing data: Data) throws {
        var parser = JSONBytesParser()
        self = try data.withUnsafeBytes { raw in try parser.parseDocument(raw.bindMemory(to: UInt8.self)) }
    }

    /// The compact, key-sorted encoding `JSONOutput.encode(_:style: .compact)` gives (without its newline), or nil
    /// when this value holds a number with a fraction, whose spelling is left to `JSONEncoder`.
    public func compactJSON() -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        return write(to: &output) ? output : nil
    }

    /// Appends the compact encoding; false (output then incomplete) for a number with a fraction.
    func write(to output: inout [UInt8]) -> Bool {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let value):
            guard value.rounded() == value, abs(value) < 9e15 else { return false }
            output.append(contentsOf: String(Int64(value)).utf8)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard value.write(to: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // JSONEncoder's `.sortedKeys` orders by the keys' UTF-8 bytes ("A" < "_" < "a", "a10" < "a9").
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                guard member.value.write(to: &output) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// A JSON string as JSONEncoder spells it: `"` and `\` escaped, `\b \f \n \r \t` by name, other control
    /// characters as `\u00xx`, everything else (slashes, non-ASCII, DEL) as it is.
    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings (ids, logins, tokens, URLs) need no escape: copied whole, not byte by byte. `register
        // --batch` writes every user's body and result line through here.
        let plain = string.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            output.append(contentsOf: string.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// A recursive-descent parser over the bytes of one JSON text (RFC 8259).
private struct JSONBytesParser {
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var position = 0
    private var depth = 0
    /// As JSONDecoder: deeper nesting than this is refused rather than risking the stack.
    private static let maximumDepth = 512

    mutating func parseDocument(_ input: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        bytes = input
        position = 0
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw corrupted("unexpected text after the JSON value") }
        return value
    }

    private func corrupted(_ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(reason) at byte \(position)"))
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw corrupted("truncated literal") }
        for index in 0..<count where bytes[position + index] != literal.utf8Start[index] {
            throw corrupted("unexpected character")
        }
        position += count
        return value
    }

    private mutating func parseValue() throws -> JSONValue {
        guard let byte = current else { throw corrupted("unexpected end of the text") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw corrupted("unexpected character")
        }
    }

    private mutating func nest() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw corrupted("too deeply nested") }
    }

    private mutating func parseObject() throws -> JSONValue {
        try nest()
        position += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            // JSONDecoder accepts a comma before the closing brace; so does this.
            if current == UInt8(ascii: "}"), !members.isEmpty {
                position += 1
                depth -= 1
                return .object(members)
            }
            guard current == UInt8(ascii: "\"") else { throw corrupted("expected a key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw corrupted("expected ':'") }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            // A repeated key keeps its first value, as JSONDecoder does.
            if members[key] == nil { members[key] = value }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(members)
            default: throw corrupted("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try nest()
        position += 1  // [
        var values: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            // JSONDecoder accepts a comma before the closing bracket; so does this.
            if current == UInt8(ascii: "]"), !values.isEmpty {
                position += 1
                depth -= 1
                return .array(values)
            }
            values.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(values)
            default: throw corrupted("expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws -> String {
        position += 1  // opening quote
        let start = position
        // The common case: no escapes, so the bytes between the quotes are the string (checked as UTF-8).
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                guard let string = String(validating: slice, as: UTF8.self) else { throw corrupted("invalid UTF-8") }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw corrupted("unescaped control character in a string") }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: scalars, as: UTF8.self) else { throw corrupted("invalid UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard let escape = current else { break }
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try parseHex4()
                    if (0xD800..<0xDC00).contains(value) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        else { throw corrupted("unpaired surrogate") }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw corrupted("unpaired surrogate") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(value) {
                        throw corrupted("unpaired surrogate")
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw corrupted("invalid \\u escape") }
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default: throw corrupted("invalid escape")
                }
            default:
                guard byte >= 0x20 else { throw corrupted("unescaped control character in a string") }
                scalars.append(byte)
                position += 1
            }
        }
        throw corrupted("unterminated string")
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw corrupted("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw corrupted("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// A number by the RFC's grammar (no leading zeros, no leading `+`, digits after `.` and `e`), converted by
    /// `Double(_:)`; one too large for a Double is refused, as JSONDecoder refuses it.
    private mutating func parseNumber() throws -> Double {
        let start = position
        func digits() -> Int {
            let first = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - first
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { throw corrupted("invalid number") }
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw corrupted("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw corrupted("invalid number") }
        }
        if let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { throw corrupted("invalid number") }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw corrupted("number out of range") }
        return value
    }
}
