/// Base64url without padding (RFC 4648 §5), byte by byte, with one meaning on both sides: idflow encodes JWTs, DPoP
/// proofs, PKCE and random values in it, the sandbox its tokens, thumbprints and challenges.
///
/// Written over bytes because Foundation's route (standard base64, then `replacingOccurrences` three times) went
/// through NSString on Linux and was most of the cost of a DPoP proof: `register --batch` signs one per request.
public enum Base64URLCoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's six-bit value in either alphabet (`+` and `-` are 62, `/` and `_` 63); 0xFF for any other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// The unpadded base64url text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            if second != nil { output.append(alphabet[Int(group >> 6 & 63)]) }
            if third != nil { output.append(alphabet[Int(group & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of unpadded base64url text; nil for any character outside that alphabet (`+`, `/` and `=`
    /// included) or an impossible length. Unused low bits are ignored, as Foundation's decoder ignores them.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(Array(text.utf8), urlAlphabetOnly: true)
    }

    /// The bytes of base64 in either alphabet, padded or not, as WebAuthn clients send them; nil when it is
    /// neither.
    public static func decodeEitherAlphabet(_ text: some StringProtocol) -> [UInt8]? {
        var bytes = Array(text.utf8)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        return decode(bytes, urlAlphabetOnly: false)
    }

    private static func decode(_ bytes: [UInt8], urlAlphabetOnly: Bool) -> [UInt8]? {
        // A lone sixth bit-group cannot end an encoding.
        guard bytes.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(bytes.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        for byte in bytes {
            if urlAlphabetOnly && (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")) { return nil }
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(group >> 16 & 0xFF))
                output.append(UInt8(group >> 8 & 0xFF))
                output.append(UInt8(group & 0xFF))
                group = 0
                count = 0
            }
        }
        switch count {
        case 2:
            // 12 bits: one byte, the low four bits unused.
            output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            // 18 bits: two bytes, the low two bits unused.
            output.append(UInt8(group >> 10 & 0xFF))
            output.append(UInt8(group >> 2 & 0xFF))
        default: break
        }
        return output
    }
}
