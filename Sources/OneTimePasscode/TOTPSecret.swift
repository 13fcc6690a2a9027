import Foundation

/// The shared secret of a time-based one-time passcode authenticator (Google Authenticator, Okta Verify's
/// code), as Base32 text (RFC 4648 §6) in enrollment documents, `otpauth://` URIs and seed files.
///
/// One type for both sides on purpose: the sandbox checks codes with the same arithmetic the client computes them
/// with, and both are tested against RFC 6238's vectors, so neither can drift from the standard alone.
public struct TOTPSecret: Sendable, Equatable {
    /// The key bytes HMAC is keyed with.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads Base32 as people and servers write it: upper or lower case, with or without `=` padding, with the
    /// spaces and hyphens authenticator apps show between groups. Nil for any other character, or for no key at all.
    public init?(base32 text: String) {
        var bits: UInt32 = 0
        var count = 0
        var bytes: [UInt8] = []
        for character in text.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a")
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = character - UInt8(ascii: "2") + 26
            case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                UInt8(ascii: "\t"):
                continue
            default: return nil
            }
            bits = (bits << 5) | UInt32(value)
            count += 5
            if count >= 8 {
                count -= 8
                bytes.append(UInt8((bits >> UInt32(count)) & 0xFF))
            }
        }
        guard !bytes.isEmpty else { return nil }
        self.bytes = bytes
    }

    /// A new random secret of `length` bytes (20: the size of an HMAC-SHA1 key, as Okta issues them).
    public static func random(length: Int = 20) -> TOTPSecret {
        var generator = SystemRandomNumberGenerator()
        return TOTPSecret(bytes: (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Upper-case Base32 without padding, the way `otpauth://` URIs and Okta's `sharedSecret` spell it.
    public var base32: String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var text = ""
        var bits: UInt32 = 0
        var count = 0
        for byte in bytes {
            bits = (bits << 8) | UInt32(byte)
            count += 8
            while count >= 5 {
                count -= 5
                text.append(alphabet[Int((bits >> UInt32(count)) & 31)])
            }
        }
        if count > 0 { text.append(alphabet[Int((bits << UInt32(5 - count)) & 31)]) }
        return text
    }
}
