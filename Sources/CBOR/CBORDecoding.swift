extension CBOR {
    /// Items nest at most this deep: a COSE key inside an attestation object is three levels, and a bound keeps a
    /// hostile input from exhausting the stack.
    public static let maximumDepth = 16

    /// Decodes exactly one item that spans all of `bytes`; trailing bytes are refused, so that two readers cannot
    /// disagree about what was signed.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        let (value, rest) = try decodePrefix(bytes[...])
        guard rest.isEmpty else {
            throw CBORError(reason: "\(rest.count) bytes follow the CBOR item", offset: rest.startIndex - bytes.startIndex)
        }
        return value
    }

    /// Decodes one item at the start of `bytes` and returns it with what follows: in authenticator data the
    /// credential's COSE key is followed by the extensions, with no length in between.
    public static func decodePrefix(
        _ bytes: ArraySlice<UInt8>
    ) throws(CBORError) -> (value: CBOR, rest: ArraySlice<UInt8>) {
        var reader = Reader(bytes: bytes)
        let value = try reader.item(depth: 1)
        return (value, bytes[reader.position...])
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.position = bytes.startIndex
        }

        /// Offsets in errors count from the start of the input the caller gave.
        private func error(_ reason: String, at index: Int) -> CBORError {
            CBORError(reason: reason, offset: index - bytes.startIndex)
        }

        private var remaining: Int { bytes.endIndex - position }

        mutating func item(depth: Int) throws(CBORError) -> CBOR {
            let start = position
            guard depth <= CBOR.maximumDepth else {
                throw error("CBOR nests deeper than \(CBOR.maximumDepth) levels", at: start)
            }
            guard position < bytes.endIndex else { throw error("CBOR ends where an item should start", at: start) }
            let initial = bytes[position]
            position += 1
            let major = initial >> 5
            let additional = initial & 0x1F
            if major == 7 {
                switch additional {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 25, 26, 27: throw error("CBOR floating-point numbers are not accepted", at: start)
                case 31: throw error("a CBOR break with no indefinite-length item open", at: start)
                default: throw error("CBOR simple value \(additional) is not accepted", at: start)
                }
            }
            if additional == 31 {
                throw error("CBOR indefinite lengths are not accepted (major type \(major))", at: start)
            }
            let argument = try self.argument(additional, start: start)
            switch major {
            case 0:
                return .unsigned(argument)
            case 1:
                return .negative(argument)
            case 2:
                return .bytes(try take(argument, start: start))
            case 3:
                let utf8 = try take(argument, start: start)
                // Invalid UTF-8 decodes with replacement characters, so the bytes would not come back.
                let text = String(decoding: utf8, as: UTF8.self)
                guard Array(text.utf8) == utf8 else {
                    throw error("a CBOR text string is not valid UTF-8", at: start)
                }
                return .text(text)
            case 4:
                // Every item is at least one byte: a count beyond the remaining bytes cannot be honest, and is
                // refused before anything is reserved for it.
                guard argument <= UInt64(remaining) else {
                    throw error("a CBOR array of \(argument) items runs past the input", at: start)
                }
                var items: [CBOR] = []
                items.reserveCapacity(Int(argument))
                for _ in 0..<argument { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                guard argument <= UInt64(remaining / 2) else {
                    throw error("a CBOR map of \(argument) pairs runs past the input", at: start)
                }
                var pairs: [CBORPair] = []
                pairs.reserveCapacity(Int(argument))
                for _ in 0..<argument {
                    let key = try item(depth: depth + 1)
                    let value = try item(depth: depth + 1)
                    pairs.append(CBORPair(key, value))
                }
                return .map(pairs)
            default:
                throw error("CBOR tags are not accepted", at: start)
            }
        }

        private mutating func argument(_ additional: UInt8, start: Int) throws(CBORError) -> UInt64 {
            let count: Int
            switch additional {
            case 0..<24: return UInt64(additional)
            case 24: count = 1
            case 25: count = 2
            case 26: count = 4
            case 27: count = 8
            default: throw error("CBOR additional information \(additional) is reserved", at: start)
            }
            guard count <= remaining else { throw error("a CBOR length runs past the input", at: start) }
            var value: UInt64 = 0
            for index in position..<(position + count) { value = value << 8 | UInt64(bytes[index]) }
            position += count
            return value
        }

        private mutating func take(_ length: UInt64, start: Int) throws(CBORError) -> [UInt8] {
            guard length <= UInt64(remaining) else {
                throw error("a CBOR string of \(length) bytes runs past the input", at: start)
            }
            let end = position + Int(length)
            defer { position = end }
            return Array(bytes[position..<end])
        }
    }
}
