/// The module grid of a QR code while it is drawn: the function patterns (finders, separators, timing, alignment,
/// format and version information, the dark module), the codewords in their zigzag, and a mask.
struct QRGrid: Sendable {
    let version: QRCodeVersion
    /// `modules[row][column]`, true for dark.
    private(set) var modules: [[Bool]]
    /// Modules of function patterns: never data, never masked.
    private var reserved: [[Bool]]

    var size: Int { version.size }

    init(version: QRCodeVersion) {
        self.version = version
        modules = Array(repeating: Array(repeating: false, count: version.size), count: version.size)
        reserved = modules
    }

    private mutating func set(column: Int, row: Int, _ dark: Bool) {
        modules[row][column] = dark
        reserved[row][column] = true
    }

    // MARK: Function patterns

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(column: 6, row: index, index % 2 == 0)
            set(column: index, row: 6, index % 2 == 0)
        }
        for (column, row) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(column: column, row: row) }
        let centres = version.alignmentCentres
        let last = centres.count - 1
        for (i, column) in centres.enumerated() {
            for (j, row) in centres.enumerated() where !((i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0)) {
                for dy in -2...2 {
                    for dx in -2...2 { set(column: column + dx, row: row + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        // Reserved with mask 0 for now; `masked` writes the real format bits.
        drawFormatBits(mask: 0)
        drawVersionBits()
    }

    /// A finder (7×7) with its separator, centred on (column, row).
    private mutating func drawFinder(column: Int, row: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = column + dx
                let y = row + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                set(column: x, row: y, distance != 2 && distance != 4)
            }
        }
    }

    /// Level M (bits 00) and the mask, BCH(15,5)-protected and XORed with 101010000010010, in both copies, plus
    /// the dark module (§7.9).
    private mutating func drawFormatBits(mask: Int) {
        let data = mask  // level M's two bits are 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(column: 8, row: index, bit(index)) }
        set(column: 8, row: 7, bit(6))
        set(column: 8, row: 8, bit(7))
        set(column: 7, row: 8, bit(8))
        for index in 9..<15 { set(column: 14 - index, row: 8, bit(index)) }
        for index in 0..<8 { set(column: size - 1 - index, row: 8, bit(index)) }
        for index in 8..<15 { set(column: 8, row: size - 15 + index, bit(index)) }
        set(column: 8, row: size - 8, true)
    }

    /// From version 7: the version number, BCH(18,6)-protected, in the two 6×3 blocks (§7.10).
    private mutating func drawVersionBits() {
        guard version.number >= 7 else { return }
        var remainder = version.number
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version.number << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            set(column: a, row: b, dark)
            set(column: b, row: a, dark)
        }
    }

    // MARK: Data

    /// The codewords' bits, most significant first, up and down the two-column strips from the right, skipping
    /// the vertical timing column and every function module (§7.7.3); modules left over stay light.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let column = right - offset
                    let upward = (right + 1) & 2 == 0
                    let row = upward ? size - 1 - vertical : vertical
                    guard !reserved[row][column], index < codewords.count * 8 else { continue }
                    modules[row][column] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// The grid with mask `pattern` applied to the data modules and its format bits written (§7.8.2).
    func masked(_ pattern: Int) -> QRGrid {
        var result = self
        for row in 0..<size {
            for column in 0..<size where !reserved[row][column] && Self.inverts(pattern, row: row, column: column) {
                result.modules[row][column].toggle()
            }
        }
        result.drawFormatBits(mask: pattern)
        return result
    }

    static func inverts(_ pattern: Int, row i: Int, column j: Int) -> Bool {
        switch pattern {
        case 0: return (i + j) % 2 == 0
        case 1: return i % 2 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) % 2 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }

    // MARK: Penalty (§7.8.3)

    /// N1 (runs of five or more), N2 (2×2 blocks), N3 (1:1:3:1:1 finder-like patterns with four light modules on
    /// one side) and N4 (how far the dark share is from half).
    var penalty: Int {
        var total = 0
        let lines = modules + (0..<size).map { column in modules.map { $0[column] } }
        for line in lines {
            var run = 1
            for index in 1..<line.count {
                if line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { total += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { total += run - 2 }
            total += 40 * Self.finderLikeCount(line)
        }
        for row in 0..<size - 1 {
            for column in 0..<size - 1 {
                let colour = modules[row][column]
                if modules[row][column + 1] == colour, modules[row + 1][column] == colour, modules[row + 1][column + 1] == colour {
                    total += 3
                }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let cells = size * size
        total += 10 * ((abs(dark * 20 - cells * 10) + cells - 1) / cells - 1)
        return total
    }

    /// Occurrences of dark-light-dark-dark-dark-light-dark with four light modules (or the edge, which counts as
    /// light) before or after it.
    private static func finderLikeCount(_ line: [Bool]) -> Int {
        let core: [Bool] = [true, false, true, true, true, false, true]
        func light(_ index: Int) -> Bool { index < 0 || index >= line.count || !line[index] }
        var count = 0
        for start in 0...(line.count - core.count) where core.indices.allSatisfy({ line[start + $0] == core[$0] }) {
            let before = (1...4).allSatisfy { light(start - $0) }
            let after = (0..<4).allSatisfy { light(start + core.count + $0) }
            if before || after { count += 1 }
        }
        return count
    }
}
