/// Encoding a QR code of some bytes (ISO/IEC 18004): one byte-mode segment, error-correction level M, the smallest of
/// versions 1–10 that holds it, and of the eight masks the one with the lowest penalty (§7.8.3, all four rules).
/// The sandbox draws the `otpauth://` URI of a TOTP enrollment with it (`contextualData.qrcode`), so a person can
/// scan it with a real authenticator app and a client can decode it.
extension QRCode {
    /// Why bytes cannot become a QR code.
    public enum EncodingError: Error, Equatable {
        /// More bytes than version 10 at level M holds (213).
        case tooLong(byteCount: Int)
    }

    public init(_ text: String) throws(EncodingError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Encodes `bytes`; `mask` forces a mask pattern instead of the one with the lowest penalty (for tests).
    public init(bytes: [UInt8], mask forcedMask: Int? = nil) throws(EncodingError) {
        guard let version = QRCodeVersion.smallest(holding: bytes.count) else { throw .tooLong(byteCount: bytes.count) }
        var grid = QRGrid(version: version)
        grid.drawFunctionPatterns()
        grid.drawCodewords(Self.codewords(bytes, version: version))
        let chosen =
            forcedMask
            ?? (0..<8).min { first, second in
                grid.masked(first).penalty < grid.masked(second).penalty
            }!
        self.init(modules: grid.masked(chosen).modules, mask: chosen)
    }

    private init(modules: [[Bool]], mask: Int) {
        self.modules = modules
        self.mask = mask
    }

    /// The data codewords (mode 0100, count, bytes, terminator, padding 0xEC/0x11), split into blocks, each
    /// followed by its error correction, interleaved (§7.4–§7.6).
    static func codewords(_ bytes: [UInt8], version: QRCodeVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version.countBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        for pad in [UInt8](arrayLiteral: 0xEC, 0x11).cycled(to: version.dataCodewords - data.count) { data.append(pad) }

        let generator = ReedSolomon.generator(degree: version.eccPerBlock)
        let shortBlocks = version.blocks - version.totalCodewords % version.blocks
        let shortDataLength = version.totalCodewords / version.blocks - version.eccPerBlock
        var blocks: [(data: [UInt8], ecc: [UInt8])] = []
        var offset = 0
        for index in 0..<version.blocks {
            let length = shortDataLength + (index < shortBlocks ? 0 : 1)
            let block = Array(data[offset..<offset + length])
            offset += length
            blocks.append((block, ReedSolomon.remainder(block, generator: generator)))
        }
        var result: [UInt8] = []
        for column in 0...shortDataLength {
            for block in blocks where column < block.data.count { result.append(block.data[column]) }
        }
        for column in 0..<version.eccPerBlock {
            for block in blocks { result.append(block.ecc[column]) }
        }
        return result
    }
}

/// Bits appended most significant first, read back as bytes.
private struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }
}

extension Array {
    /// This array repeated until it has `count` elements (empty for a count of 0 or less).
    fileprivate func cycled(to count: Int) -> [Element] {
        count <= 0 ? [] : (0..<count).map { self[$0 % self.count] }
    }
}
