import CZlib
import Foundation

/// Writing a QR code as an 8-bit grayscale PNG (one IDAT deflated with zlib's `compress2`, CRCs by zlib's `crc32`), with the
/// quiet zone of four modules the standard asks for, and its `data:` URL (`contextualData.qrcode.href`).
extension PNGImage {
    /// Why a PNG could not be written.
    public enum WritingError: Error, Equatable {
        /// `compress2` failed (zlib's status code).
        case deflate(status: Int32)
    }

    public static let quietZone = 4

    /// The PNG bytes of `code`, `scale` pixels per module.
    public static func png(_ code: QRCode, scale: Int = 4) throws(WritingError) -> [UInt8] {
        let side = (code.size + 2 * quietZone) * scale
        var raw: [UInt8] = []
        raw.reserveCapacity((side + 1) * side)
        for y in 0..<side {
            raw.append(0)  // filter type None
            let row = y / scale - quietZone
            for x in 0..<side {
                let column = x / scale - quietZone
                let dark = (0..<code.size).contains(row) && (0..<code.size).contains(column) && code.modules[row][column]
                raw.append(dark ? 0x00 : 0xFF)
            }
        }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(side))
        header.appendBigEndian(UInt32(side))
        header += [8, 0, 0, 0, 0]  // bit depth 8, grayscale, deflate, adaptive filters, no interlace
        var image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        image += chunk("IHDR", header)
        image += chunk("IDAT", try deflate(raw))
        image += chunk("IEND", [])
        return image
    }

    /// `data:image/png;base64,…` of `code`.
    public static func dataURL(_ code: QRCode, scale: Int = 4) throws(WritingError) -> String {
        "data:image/png;base64," + Data(try png(code, scale: scale)).base64EncodedString()
    }

    /// Length, type, data and the CRC-32 of type and data.
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        result += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        result.appendBigEndian(UInt32(crc))
        return result
    }

    /// A zlib stream of `bytes` (what IDAT holds).
    private static func deflate(_ bytes: [UInt8]) throws(WritingError) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { buffer in
                compress2(buffer.baseAddress, &length, input.baseAddress, uLong(input.count), 9)
            }
        }
        guard status == Z_OK else { throw .deflate(status: status) }
        return Array(output.prefix(Int(length)))
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
