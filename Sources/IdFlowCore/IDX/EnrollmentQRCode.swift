import Foundation
import IdFlowFoundation
import QRCodeImage

/// An enrollment's QR code (`contextualData.qrcode.href`, a `data:image/png;base64,…` URL) as terminal lines.
enum EnrollmentQRCode {
    /// The drawing, or why there is none (a picture idflow cannot read is described, not fatal: the key is
    /// shown beside it).
    static func lines(dataURL: String) -> Result<[String], EnrollmentQRCodeFailure> {
        let prefix = "data:image/png;base64,"
        guard dataURL.hasPrefix(prefix), let data = Data(base64Encoded: String(dataURL.dropFirst(prefix.count))) else {
            return .failure(EnrollmentQRCodeFailure(reason: "not a PNG data URL"))
        }
        do {
            let code = try QRCode(reading: PNGImage(data: data))
            return .success(code.terminalLines())
        } catch let error as PNGImage.DecodingError {
            return .failure(EnrollmentQRCodeFailure(reason: "unreadable PNG: \(error)"))
        } catch {
            return .failure(EnrollmentQRCodeFailure(reason: "no QR code found in the picture"))
        }
    }
}

struct EnrollmentQRCodeFailure: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
