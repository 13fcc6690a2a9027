/// The shapes of QR code versions 1–10 at error-correction level M (ISO/IEC 18004 tables 9 and E.1): enough for
/// an `otpauth://` URI of up to 213 bytes, which a TOTP enrollment's (host, login, 32-character secret, issuer)
/// stays well below.
struct QRCodeVersion: Sendable, Equatable {
    /// 1 through 10.
    let number: Int
    /// Error-correction codewords in each block.
    let eccPerBlock: Int
    /// Blocks of the version; the last `totalCodewords % blocks` of them hold one data codeword more.
    let blocks: Int
    /// Data and error-correction codewords together.
    let totalCodewords: Int
    /// Centres of the alignment patterns along each axis (none for version 1).
    let alignmentCentres: [Int]

    /// Modules per side.
    var size: Int { 17 + 4 * number }
    /// Codewords left for data once the error correction is taken.
    var dataCodewords: Int { totalCodewords - eccPerBlock * blocks }
    /// The width of a byte-mode segment's character count.
    var countBits: Int { number < 10 ? 8 : 16 }
    /// The most bytes a byte-mode segment can carry in this version (mode, count, then the bytes).
    var byteCapacity: Int { (dataCodewords * 8 - 4 - countBits) / 8 }

    /// Level M, versions 1–10 (ISO/IEC 18004 table 9).
    static let levelM: [QRCodeVersion] = [
        QRCodeVersion(number: 1, eccPerBlock: 10, blocks: 1, totalCodewords: 26, alignmentCentres: []),
        QRCodeVersion(number: 2, eccPerBlock: 16, blocks: 1, totalCodewords: 44, alignmentCentres: [6, 18]),
        QRCodeVersion(number: 3, eccPerBlock: 26, blocks: 1, totalCodewords: 70, alignmentCentres: [6, 22]),
        QRCodeVersion(number: 4, eccPerBlock: 18, blocks: 2, totalCodewords: 100, alignmentCentres: [6, 26]),
        QRCodeVersion(number: 5, eccPerBlock: 24, blocks: 2, totalCodewords: 134, alignmentCentres: [6, 30]),
        QRCodeVersion(number: 6, eccPerBlock: 16, blocks: 4, totalCodewords: 172, alignmentCentres: [6, 34]),
        QRCodeVersion(number: 7, eccPerBlock: 18, blocks: 4, totalCodewords: 196, alignmentCentres: [6, 22, 38]),
        QRCodeVersion(number: 8, eccPerBlock: 22, blocks: 4, totalCodewords: 242, alignmentCentres: [6, 24, 42]),
        QRCodeVersion(number: 9, eccPerBlock: 22, blocks: 5, totalCodewords: 292, alignmentCentres: [6, 26, 46]),
        QRCodeVersion(number: 10, eccPerBlock: 26, blocks: 5, totalCodewords: 346, alignmentCentres: [6, 28, 50]),
    ]

    /// The smallest version that holds `byteCount` bytes, or nil when none of 1–10 does.
    static func smallest(holding byteCount: Int) -> QRCodeVersion? {
        levelM.first { $0.byteCapacity >= byteCount }
    }
}
