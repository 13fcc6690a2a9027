import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox
@testable import QRCodeImage

/// The QR encoder and its PNG, read back by a real decoder: `zbarimg` (Debian `zbar-tools`, which `.ci/run` installs).
@Suite struct QRCodeTests {
    /// Decodes a PNG with `zbarimg --raw`; nil when the tool is missing.
    static func zbarimg(_ png: [UInt8]) async throws -> String? {
        guard let tool = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile) else {
            return nil
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ExternalCommand.run(tool, ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file.path])
        #expect(result.status == 0, "zbarimg found no QR code")
        let data = result.standardOutput
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    static let zbarAvailable = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].contains(where: FileManager.default.isExecutableFile)

    /// An otpauth URI of about `length` bytes.
    static func uri(length: Int) -> String {
        let base = "otpauth://totp/sandbox.example:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=idflow"
        guard length > base.count else { return String(base.prefix(length)) }
        return base + "&pad=" + String(repeating: "x", count: length - base.count - 5)
    }

    @Test(.enabled(if: zbarAvailable), arguments: [1, 14, 20, 40, 60, 90, 110, 130, 160, 190, 213])
    func zbarimgReadsTheTextBack(length: Int) async throws {
        let text = Self.uri(length: length)
        let code = try QRCode(text)
        #expect(try await Self.zbarimg(try PNGImage.png(code)) == text, "version \(code.versionNumber), mask \(code.mask ?? -1)")
    }

    @Test(.enabled(if: zbarAvailable), arguments: 0..<8)
    func everyMaskDecodes(mask: Int) async throws {
        let text = Self.uri(length: 150)
        let code = try QRCode(bytes: Array(text.utf8), mask: mask)
        #expect(code.versionNumber >= 7, "the version information is drawn")
        #expect(try await Self.zbarimg(try PNGImage.png(code, scale: 3)) == text)
    }

    @Test func theSmallestVersionThatHoldsTheBytesIsChosen() async throws {
        #expect(try QRCode(String(repeating: "a", count: 14)).versionNumber == 1)
        #expect(try QRCode(String(repeating: "a", count: 15)).versionNumber == 2)
        #expect(try QRCode(String(repeating: "a", count: 213)).versionNumber == 10)
        #expect(throws: QRCode.EncodingError.tooLong(byteCount: 214)) { try QRCode(String(repeating: "a", count: 214)) }
    }

    /// ISO/IEC 18004 annex I's example: "01234567" at version 1-M has these error-correction codewords; in byte mode
    /// the data differs, so this checks the field arithmetic and the generator on the standard's numeric-mode data.
    @Test func reedSolomonMatchesTheStandardsExample() {
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        let ecc = ReedSolomon.remainder(data, generator: ReedSolomon.generator(degree: 10))
        #expect(ecc == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test func thePNGHasItsSignatureSizeAndQuietZone() async throws {
        let code = try QRCode("otpauth://totp/x")
        let png = try PNGImage.png(code, scale: 4)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let side = (code.size + 8) * 4
        #expect(Array(png[16..<24]) == [0, 0, UInt8(side >> 8), UInt8(side & 0xFF), 0, 0, UInt8(side >> 8), UInt8(side & 0xFF)])
        #expect(try PNGImage.dataURL(code).hasPrefix("data:image/png;base64,iVBORw0KGgo"))
    }
}
