import CBOR
import Testing

/// The CBOR that passkeys are written in: RFC 8949's own examples both ways, round trips of WebAuthn's shapes, and
/// the inputs a hostile server or authenticator could send, each refused with a reason rather than a crash.
struct CBORTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// RFC 8949 Appendix A, every example without floats, tags or indefinite lengths.
    static let appendixA: [(CBOR, String)] = [
        (.unsigned(0), "00"), (.unsigned(1), "01"), (.unsigned(10), "0a"), (.unsigned(23), "17"),
        (.unsigned(24), "1818"), (.unsigned(25), "1819"), (.unsigned(100), "1864"), (.unsigned(1000), "1903e8"),
        (.unsigned(1_000_000), "1a000f4240"), (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
        (.unsigned(18_446_744_073_709_551_615), "1bffffffffffffffff"),
        (.negative(18_446_744_073_709_551_615), "3bffffffffffffffff"),
        (.int(-1), "20"), (.int(-10), "29"), (.int(-100), "3863"), (.int(-1000), "3903e7"),
        (.bool(false), "f4"), (.bool(true), "f5"), (.null, "f6"),
        (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"),
        (.text(""), "60"), (.text("a"), "6161"), (.text("IETF"), "6449455446"), (.text("\"\\"), "62225c"),
        (.text("\u{00fc}"), "62c3bc"), (.text("\u{6c34}"), "63e6b0b4"), (.text("\u{10151}"), "64f0908591"),
        (.array([]), "80"), (.array([.int(1), .int(2), .int(3)]), "83010203"),
        (.array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])]), "8301820203820405"),
        (.array((1...25).map { CBOR.int($0) }), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        (.map([]), "a0"),
        (.map([CBORPair(.int(1), .int(2)), CBORPair(.int(3), .int(4))]), "a201020304"),
        (
            .map([CBORPair(.text("a"), .int(1)), CBORPair(.text("b"), .array([.int(2), .int(3)]))]),
            "a26161016162820203"
        ),
        (.array([.text("a"), .map([CBORPair(.text("b"), .text("c"))])]), "826161a161626163"),
        (
            .map(["a", "b", "c", "d", "e"].map { CBORPair(.text($0), .text($0.uppercased())) }),
            "a56161614161626142616361436164614461656145"
        ),
    ]

    @Test(arguments: appendixA) func theRFCExamplesAreWrittenAndReadByteForByte(value: CBOR, expected: String) throws {
        #expect(value.encoded() == Self.hex(expected))
        #expect(try CBOR.decode(Self.hex(expected)) == value)
    }

    /// A COSE ES256 public key as authenticators write it (RFC 9053 §7.1.1, WebAuthn §6.5.1.1): integer labels,
    /// negative ones included, read back by label in the order written.
    @Test func aCOSEKeyRoundTripsAndIsReadByLabel() throws {
        let x = [UInt8](repeating: 0x11, count: 32)
        let y = [UInt8](repeating: 0x22, count: 32)
        let key = CBOR.map([
            CBORPair(.int(1), .int(2)), CBORPair(.int(3), .int(-7)), CBORPair(.int(-1), .int(1)),
            CBORPair(.int(-2), .bytes(x)), CBORPair(.int(-3), .bytes(y)),
        ])
        let encoded = key.encoded()
        #expect(Array(encoded.prefix(11)) == Self.hex("a501020326200121582011"))
        let decoded = try CBOR.decode(encoded)
        #expect(decoded == key)
        #expect(decoded[1]?.intValue == 2)
        #expect(decoded[3]?.intValue == -7)
        #expect(decoded[-2]?.bytesValue == x)
        #expect(decoded[-3]?.bytesValue == y)
        #expect(decoded[4] == nil)
        #expect(decoded["fmt"] == nil)
    }

    @Test func anAttestationObjectIsReadByTextKey() throws {
        let object = CBOR.map([
            CBORPair(.text("fmt"), .text("none")), CBORPair(.text("attStmt"), .map([])),
            CBORPair(.text("authData"), .bytes([0xAB, 0xCD])),
        ])
        let decoded = try CBOR.decode(object.encoded())
        #expect(decoded["fmt"]?.textValue == "none")
        #expect(decoded["attStmt"] == .map([]))
        #expect(decoded["authData"]?.bytesValue == [0xAB, 0xCD])
        #expect(CBOR.text("x")["fmt"] == nil)
    }

    /// In authenticator data the COSE key is followed by the extensions with nothing to say where it ends.
    @Test func aPrefixIsReadAndWhatFollowsReturned() throws {
        let bytes = Self.hex("a10102") + [0xA1, 0x61, 0x78, 0xF5]
        let (value, rest) = try CBOR.decodePrefix(bytes[...])
        #expect(value == .map([CBORPair(.int(1), .int(2))]))
        #expect(Array(rest) == [0xA1, 0x61, 0x78, 0xF5])
        let (empty, nothing) = try CBOR.decodePrefix(Self.hex("40")[...])
        #expect(empty == .bytes([]) && nothing.isEmpty)
        // A slice that does not start at zero reports offsets from its own start.
        let shifted = ([0xFF, 0xFF] + Self.hex("62c3"))[2...]
        #expect(throws: CBORError(reason: "a CBOR string of 2 bytes runs past the input", offset: 0)) {
            try CBOR.decodePrefix(shifted)
        }
    }

    @Test func integersOutsideIntHaveNoIntValue() {
        #expect(CBOR.unsigned(UInt64.max).intValue == nil)
        #expect(CBOR.negative(UInt64.max).intValue == nil)
        #expect(CBOR.int(Int.min).intValue == Int.min)
        #expect(CBOR.int(Int.max).intValue == Int.max)
        #expect(CBOR.text("1").intValue == nil)
    }

    static let refused: [(String, String, Int)] = [
        ("", "CBOR ends where an item should start", 0),
        ("18", "a CBOR length runs past the input", 0),
        ("1a0000", "a CBOR length runs past the input", 0),
        ("44010203", "a CBOR string of 4 bytes runs past the input", 0),
        ("83011818", "CBOR ends where an item should start", 4),
        ("a201020304" + "05", "1 bytes follow the CBOR item", 5),
        ("5bffffffffffffffff00", "a CBOR string of 18446744073709551615 bytes runs past the input", 0),
        ("9bffffffffffffffff", "a CBOR array of 18446744073709551615 items runs past the input", 0),
        ("bb7fffffffffffffff", "a CBOR map of 9223372036854775807 pairs runs past the input", 0),
        ("5f4101ff", "CBOR indefinite lengths are not accepted (major type 2)", 0),
        ("9f01ff", "CBOR indefinite lengths are not accepted (major type 4)", 0),
        ("bf6161 01ff", "CBOR indefinite lengths are not accepted (major type 5)", 0),
        ("ff", "a CBOR break with no indefinite-length item open", 0),
        ("c11a514b67b0", "CBOR tags are not accepted", 0),
        ("f93c00", "CBOR floating-point numbers are not accepted", 0),
        ("fb3ff199999999999a", "CBOR floating-point numbers are not accepted", 0),
        ("f7", "CBOR simple value 23 is not accepted", 0),
        ("1c", "CBOR additional information 28 is reserved", 0),
        ("62c328", "a CBOR text string is not valid UTF-8", 0),
    ]

    @Test(arguments: refused) func malformedOrUnsupportedInputIsRefusedWithWhereAndWhy(
        input: String, reason: String, offset: Int
    ) {
        let bytes = Self.hex(input.filter { $0 != " " })
        #expect(throws: CBORError(reason: reason, offset: offset)) { try CBOR.decode(bytes) }
    }

    @Test func nestingIsBoundedAtSixteenLevels() throws {
        let sixteen = [UInt8](repeating: 0x81, count: 15) + [0x00]
        #expect(throws: Never.self) { try CBOR.decode(sixteen) }
        let seventeen = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect(throws: CBORError(reason: "CBOR nests deeper than 16 levels", offset: 16)) {
            try CBOR.decode(seventeen)
        }
        // Far deeper than the stack would bear unbounded: refused at the seventeenth level, nothing more read.
        let deep = [UInt8](repeating: 0x81, count: 1_000_000)
        #expect(throws: CBORError(reason: "CBOR nests deeper than 16 levels", offset: 16)) { try CBOR.decode(deep) }
    }
}
