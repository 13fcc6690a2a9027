import CZlib
import Foundation

/// A PNG image reduced to what a terminal needs to redraw it: one luminance byte per pixel. The Identity
/// Engine sends a TOTP enrollment's QR code only as a PNG (`contextualData.qrcode`, a `data:` URL), so a person
/// at a terminal can scan it only if idflow reads the picture.
///
/// Reads the non-interlaced images of every colour type at bit depths 1–16 (Okta's are 8-bit RGBA); the image
/// comes from the network, so sizes are bounded before anything is allocated and every length is checked.
public struct PNGImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row by row, 0 black … 255 white; transparent pixels count as white (the page behind them).
    public let luminance: [UInt8]

    /// Larger pictures are refused: a QR code needs a few hundred pixels a side.
    public static let maximumSide = 4096
    /// And at most this many pixels in all (1 MP: a version-40 code at 5 pixels a module is 0.8 MP), checked before
    /// anything is allocated: a 16-bit RGBA header of 4096×4096 asked for 280 MB.
    public static let maximumPixels = 1 << 20

    public enum DecodingError: Error, Equatable {
        case notPNG
        case truncated
        case unsupported(String)
        case corrupt(String)
    }

    public init(width: Int, height: Int, luminance: [UInt8]) {
        self.width = width
        self.height = height
        self.luminance = luminance
    }

    public subscript(x: Int, y: Int) -> UInt8 { luminance[y * width + x] }

    public init(data: Data) throws(DecodingError) {
        let bytes = [UInt8](data)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notPNG }
        var header: (width: Int, height: Int, depth: Int, colour: Int, interlace: Int)?
        var palette: [UInt8] = []
        var compressed: [UInt8] = []
        var offset = 8
        reading: while true {
            guard offset + 8 <= bytes.count else { throw .truncated }
            let length = Int(Self.bigEndian(bytes, at: offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= bytes.count, offset + 12 + length <= bytes.count else { throw .truncated }
            let body = Array(bytes[offset + 8..<offset + 8 + length])
            offset += 12 + length
            switch type {
            case "IHDR":
                guard length == 13 else { throw .corrupt("IHDR of \(length) bytes") }
                header = (
                    Int(Self.bigEndian(body, at: 0)), Int(Self.bigEndian(body, at: 4)), Int(body[8]), Int(body[9]), Int(body[12])
                )
            case "PLTE": palette = body
            case "IDAT": compressed += body
            case "IEND": break reading
            default: continue
            }
        }
        guard let header else { throw .corrupt("no IHDR chunk") }
        guard header.width > 0, header.height > 0, header.width <= Self.maximumSide, header.height <= Self.maximumSide,
            header.width * header.height <= Self.maximumPixels
        else {
            throw .unsupported("an image of \(header.width)×\(header.height) pixels")
        }
        guard header.interlace == 0 else { throw .unsupported("interlaced images") }
        let channels: Int
        switch header.colour {
        case 0: channels = 1
        case 2: channels = 3
        case 3: channels = 1
        case 4: channels = 2
        case 6: channels = 4
        default: throw .unsupported("colour type \(header.colour)")
        }
        let allowedDepths: Set<Int> = header.colour == 0 ? [1, 2, 4, 8, 16] : header.colour == 3 ? [1, 2, 4, 8] : [8, 16]
        guard allowedDepths.contains(header.depth) else { throw .unsupported("bit depth \(header.depth)") }
        let bitsPerPixel = channels * header.depth
        let rowBytes = (header.width * bitsPerPixel + 7) / 8
        let stride = max(1, bitsPerPixel / 8)
        let raw = try Self.inflate(compressed, expected: header.height * (rowBytes + 1))
        let rows = try Self.unfilter(raw, rowBytes: rowBytes, height: header.height, stride: stride)
        var luminance = [UInt8](repeating: 255, count: header.width * header.height)
        for y in 0..<header.height {
            let row = rows[(y * rowBytes)..<((y + 1) * rowBytes)]
            for x in 0..<header.width {
                luminance[y * header.width + x] = try Self.luminance(
                    row: row, x: x, depth: header.depth, colour: header.colour, channels: channels, palette: palette)
            }
        }
        self.init(width: header.width, height: header.height, luminance: luminance)
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// zlib's inflate, streamed: the output grows only as the data really inflates, and stops at the size the
    /// header implies (more is corrupt), so a small file that claims a large picture costs no more than it holds.
    private static func inflate(_ compressed: [UInt8], expected: Int) throws(DecodingError) -> [UInt8] {
        guard !compressed.isEmpty else { throw .corrupt("no image data") }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("image data zlib cannot start on")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var status = Z_OK
        compressed.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while status == Z_OK, output.count <= expected {
                let produced = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[..<min(produced, expected + 1 - output.count)])
                if produced == 0, status == Z_OK { status = Z_BUF_ERROR }
            }
        }
        guard status == Z_STREAM_END, output.count == expected else { throw .corrupt("image data that does not inflate to its size") }
        return output
    }

    /// Undoes the per-row filters (PNG §9): None, Sub, Up, Average, Paeth.
    private static func unfilter(_ raw: [UInt8], rowBytes: Int, height: Int, stride: Int) throws(DecodingError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let filter = raw[y * (rowBytes + 1)]
            let source = y * (rowBytes + 1) + 1
            let target = y * rowBytes
            for i in 0..<rowBytes {
                let value = raw[source + i]
                let left = i >= stride ? Int(out[target + i - stride]) : 0
                let up = y > 0 ? Int(out[target - rowBytes + i]) : 0
                let upLeft = (y > 0 && i >= stride) ? Int(out[target - rowBytes + i - stride]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
                default: throw .corrupt("row filter \(filter)")
                }
                out[target + i] = value &+ UInt8(truncatingIfNeeded: predictor)
            }
        }
        return out
    }

    /// One pixel's luminance (ITU-R BT.601 weights), composited over white.
    private static func luminance(
        row: ArraySlice<UInt8>, x: Int, depth: Int, colour: Int, channels: Int, palette: [UInt8]
    ) throws(DecodingError) -> UInt8 {
        let base = row.startIndex
        func sample(_ channel: Int) -> Int {
            if depth == 16 { return Int(row[base + (x * channels + channel) * 2]) }
            if depth == 8 { return Int(row[base + x * channels + channel]) }
            let perByte = 8 / depth
            let byte = row[base + x / perByte]
            let shift = 8 - depth * (x % perByte + 1)
            let value = Int(byte >> UInt8(shift)) & ((1 << depth) - 1)
            return colour == 3 ? value : value * 255 / ((1 << depth) - 1)
        }
        var (red, green, blue, alpha) = (0, 0, 0, 255)
        switch colour {
        case 0: (red, green, blue) = (sample(0), sample(0), sample(0))
        case 2: (red, green, blue) = (sample(0), sample(1), sample(2))
        case 3:
            let index = sample(0)
            guard index * 3 + 2 < palette.count else { throw .corrupt("a palette index out of range") }
            (red, green, blue) = (Int(palette[index * 3]), Int(palette[index * 3 + 1]), Int(palette[index * 3 + 2]))
        case 4: (red, green, blue, alpha) = (sample(0), sample(0), sample(0), sample(1))
        default: (red, green, blue, alpha) = (sample(0), sample(1), sample(2), sample(3))
        }
        let grey = (299 * red + 587 * green + 114 * blue) / 1000
        return UInt8((grey * alpha + 255 * (255 - alpha)) / 255)
    }
}
