/// Reed–Solomon error correction over GF(2⁸) with the QR code's polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D) and
/// generator roots 2⁰ … 2ⁿ⁻¹ (ISO/IEC 18004 §7.5.2).
enum ReedSolomon {
    /// The product of two field elements.
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for bit in (0..<8).reversed() {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(bit)) & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// The coefficients of the generator polynomial of `degree`, highest power first, the leading 1 left out.
    static func generator(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in result.indices {
                result[index] = multiply(result[index], root)
                if index + 1 < result.count { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The error-correction codewords of `data`: the remainder of data·xⁿ divided by the generator.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(generator[index], factor) }
        }
        return result
    }
}
