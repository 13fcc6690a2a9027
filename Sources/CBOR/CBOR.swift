/// The subset of CBOR (RFC 8949) that WebAuthn uses: attestation objects and COSE keys. One implementation for both
/// sides, so that what idflow's authenticator writes is what the sandbox reads: unsigned and negative integers, byte
/// and text strings, arrays, maps, booleans and null, all with definite lengths. Tags and floats appear in no
/// WebAuthn structure, so they are refused rather than half supported.
public indirect enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// The value -1 - n (major type 1), so that the whole range down to -2^64 is representable.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// The pairs in the order read, or to be written: COSE keys and attestation objects are compared byte for byte,
    /// so the order is the caller's to choose, never re-sorted here.
    case map([CBORPair])
    case bool(Bool)
    case null
}

/// One key and value of a CBOR map.
public struct CBORPair: Sendable, Equatable {
    public var key: CBOR
    public var value: CBOR

    public init(_ key: CBOR, _ value: CBOR) {
        self.key = key
        self.value = value
    }
}

/// Why some bytes are not CBOR this decoder accepts, and where: the offset of the item or length that failed.
public struct CBORError: Error, Sendable, Equatable {
    public var reason: String
    public var offset: Int

    public init(reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}

extension CBOR {
    /// The CBOR item for an integer: `.unsigned` for zero and above, `.negative` below.
    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The value of the map entry whose key is the integer `key` (COSE labels: 1, 3, -1, -2, -3); nil when this is
    /// no map or has no such key.
    public subscript(key: Int) -> CBOR? {
        lookup(.int(key))
    }

    /// The value of the map entry whose key is the text `key` ("fmt", "attStmt", "authData").
    public subscript(key: String) -> CBOR? {
        lookup(.text(key))
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The integer, when it fits an `Int`.
    public var intValue: Int? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): return value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: return nil
        }
    }

    private func lookup(_ key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }
}
