import Foundation

/// A QR code as its modules (dark squares), whichever side made it: the sandbox encodes an `otpauth://` URI into
/// one and draws it as a PNG (`QRCode(_:)`, `PNGImage.png`); idflow reads one back from that picture
/// (`init(reading:)`) only to redraw it in a terminal for a phone to scan. Nothing is ever decoded back to text.
public struct QRCode: Sendable, Equatable {
    /// Row by row; true is a dark module.
    public let modules: [[Bool]]
    /// The mask pattern the encoder chose (0–7); nil for a code read back from a picture.
    public let mask: Int?

    /// Modules per side.
    public var size: Int { modules.count }
    /// The version (1–40) a code of this size is.
    public var versionNumber: Int { (size - 17) / 4 }

    public enum ReadingError: Error, Equatable {
        case noCode
        case irregular(String)
    }

    public init(modules: [[Bool]]) {
        self.modules = modules
        mask = nil
    }

    /// Finds the code in a picture with a light background: the dark pixels' bounding box is the code without its
    /// quiet zone, and the top-left finder pattern's first row (7 dark modules) gives the module size.
    public init(reading image: PNGImage) throws(ReadingError) {
        func dark(_ x: Int, _ y: Int) -> Bool { image[x, y] < 128 }
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
        for y in 0..<image.height {
            for x in 0..<image.width where dark(x, y) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { throw .noCode }
        var run = 0
        while minX + run <= maxX, dark(minX + run, minY) { run += 1 }
        let estimate = Double(run) / 7
        guard estimate >= 1 else { throw .irregular("a finder pattern narrower than 7 pixels") }
        let side = Double(maxX - minX + 1)
        let count = Int((side / estimate).rounded())
        // Versions 1–40 have 21, 25, … 177 modules a side.
        guard (21...177).contains(count), (count - 21) % 4 == 0, abs(Double(maxY - minY + 1) - side) <= estimate else {
            throw .irregular("\(count) modules a side")
        }
        // Each axis has its own module size, and every sample is clamped into the dark box: the box may be up to a
        // module shorter than it is wide, and a box touching the picture's bottom edge once sent the last row's
        // samples past the image.
        let (moduleWidth, moduleHeight) = (side / Double(count), Double(maxY - minY + 1) / Double(count))
        mask = nil
        modules = (0..<count).map { row in
            let y = min(maxY, minY + Int((Double(row) + 0.5) * moduleHeight))
            return (0..<count).map { column in
                dark(min(maxX, minX + Int((Double(column) + 0.5) * moduleWidth)), y)
            }
        }
    }

    /// Half-block characters, two module rows per text line, with `quietZone` light modules around the code.
    /// Light modules are drawn (as `qrencode -t UTF8` does), so the code reads right on the usual terminal with light
    /// text on a dark background.
    public func terminalLines(quietZone: Int = 2) -> [String] {
        let side = modules.count + 2 * quietZone
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quietZone, column - quietZone)
            guard modules.indices.contains(r), modules[r].indices.contains(c) else { return false }
            return modules[r][c]
        }
        return stride(from: 0, to: side, by: 2).map { row in
            String(
                (0..<side).map { column -> Character in
                    let top = !dark(row, column)
                    let bottom = row + 1 < side && !dark(row + 1, column)
                    switch (top, bottom) {
                    case (true, true): return "█"
                    case (true, false): return "▀"
                    case (false, true): return "▄"
                    case (false, false): return " "
                    }
                })
        }
    }
}
