/// Lays compact JSON out as jq prints it: two spaces a level, `"key": value`, `{}` and `[]` for empty ones.
/// Foundation's pretty printer writes `"key" : value` and was the only layout of its kind a person met. Working on
/// the compact bytes keeps everything the encoder decided (key order, number spelling, escapes) as it was.
enum JSONLayout {
    static func pretty(_ compact: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(0x20, count: depth * 2))
        }
        var index = 0
        while index < compact.count {
            let byte = compact[index]
            defer { index += 1 }
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < compact.count, compact[index + 1] == closer {
                    output.append(closer)
                    index += 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            case 0x20, 0x0A, 0x0D, 0x09:
                continue
            default:
                output.append(byte)
            }
        }
        return output
    }
}
