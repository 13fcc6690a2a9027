extension CBOR {
    /// The canonical encoding: every length and integer in its shortest form, definite lengths only, map pairs in
    /// the order given (RFC 8949 §4.2.1 without the key sort, which COSE and WebAuthn leave to the writer).
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }

    private func encode(into output: inout [UInt8]) {
        switch self {
        case .unsigned(let value):
            Self.appendHead(major: 0, argument: value, to: &output)
        case .negative(let value):
            Self.appendHead(major: 1, argument: value, to: &output)
        case .bytes(let bytes):
            Self.appendHead(major: 2, argument: UInt64(bytes.count), to: &output)
            output += bytes
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.appendHead(major: 3, argument: UInt64(utf8.count), to: &output)
            output += utf8
        case .array(let items):
            Self.appendHead(major: 4, argument: UInt64(items.count), to: &output)
            for item in items { item.encode(into: &output) }
        case .map(let pairs):
            Self.appendHead(major: 5, argument: UInt64(pairs.count), to: &output)
            for pair in pairs {
                pair.key.encode(into: &output)
                pair.value.encode(into: &output)
            }
        case .bool(let value):
            output.append(value ? 0xF5 : 0xF4)
        case .null:
            output.append(0xF6)
        }
    }

    /// The initial byte and its argument in the fewest bytes (RFC 8949 §3, §4.2.1).
    private static func appendHead(major: UInt8, argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
        case 24...0xFF:
            output += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF:
            output += [type | 25] + bigEndian(argument, count: 2)
        case 0x1_0000...0xFFFF_FFFF:
            output += [type | 26] + bigEndian(argument, count: 4)
        default:
            output += [type | 27] + bigEndian(argument, count: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
    }
}
