import Foundation
import IdFlowCore
import IdFlowFoundation
import QRCodeImage

extension FuzzTargets {
    /// A TOTP enrollment's QR code as the Identity Engine sends it (a PNG) and the sampler that reads its modules
    /// back. An input that starts with the PNG signature goes through the decoder first; any other input is a picture
    /// by itself (width, height, then one luminance byte a pixel, white past the input's end), so the sampler meets
    /// every geometry the fuzzer can draw, not only those a valid PNG reaches.
    static let qrCode = FuzzTarget(
        name: "qr-code",
        summary: "PNG decoder and QR module sampler over arbitrary pictures"
    ) { input in
        let picture: PNGImage
        if input.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard let decoded = try? PNGImage(data: input) else { return }
            picture = decoded
        } else {
            let bytes = [UInt8](input)
            guard bytes.count >= 2, bytes[0] > 0, bytes[1] > 0 else { return }
            let (width, height) = (Int(bytes[0]), Int(bytes[1]))
            var pixels = [UInt8](repeating: 255, count: width * height)
            for (index, value) in bytes.dropFirst(2).prefix(pixels.count).enumerated() { pixels[index] = value }
            picture = PNGImage(width: width, height: height, luminance: pixels)
        }
        guard let code = try? QRCode(reading: picture) else { return }
        precondition(code.modules.allSatisfy { $0.count == code.modules.count }, "a QR code read back is not square")
        _ = code.terminalLines()
    }
}
