import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import QRCodeImage
import Testing

/// The QR code of a recorded enrollment, read from Okta's own PNG and redrawn for a terminal, must still be the
/// code a phone scans: zbarimg (zbar-tools, as a phone's camera would) reads idflow's module grid back to the URI.
struct QRCodeTests {
    static func recordedPicture(_ fixture: String) throws -> Data {
        let document = try JSONValue(data: try Fixtures.data("okta-idx/\(fixture)"))
        let href = try #require(document["currentAuthenticator"]?["value"]?["contextualData"]?["qrcode"]?["href"]?.stringValue)
        return try #require(Data(base64Encoded: String(href.dropFirst("data:image/png;base64,".count))))
    }

    /// The modules as a plain PBM picture (4 pixels a module, 4 modules of quiet zone), read by zbarimg.
    static func scan(_ code: QRCode) async throws -> String {
        let (scale, quiet) = (4, 4)
        let side = (code.modules.count + 2 * quiet) * scale
        var text = "P1\n\(side) \(side)\n"
        for y in 0..<side {
            let row = y / scale - quiet
            text +=
                (0..<side).map { x in
                    let column = x / scale - quiet
                    return code.modules.indices.contains(row) && code.modules.indices.contains(column) && code.modules[row][column]
                        ? "1" : "0"
                }.joined(separator: " ") + "\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try text.write(to: file, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        let zbarimg = "/usr/bin/zbarimg"
        guard FileManager.default.isExecutableFile(atPath: zbarimg) else {
            Issue.record("zbarimg is missing: apt-get install -y zbar-tools (.ci/run installs it)")
            return ""
        }
        let result = try await ExternalCommand.run(zbarimg, ["-q", "--raw", file.path])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [
        (
            "google-otp-enroll-qrcode.json",
            "otpauth://totp/android-idx-sdk.okta.com:jaynewstrom%2B1%40gmail.com?secret=AANACLY3MX6EHKJJ&issuer=android-idx-sdk.okta.com"
        ),
        (
            "okta-verify-enroll-poll-qrcode.json",
            "oktaverify://jaynewstrom+ov@gmail.com/?t=ftV2UoXzrSqJQFZYTS5XhI1o0PhusDu6Tt&f=aut8foudqBsFvwfPs696&s=https://jnewstrom-test.okta.com&issuer=jnewstrom-test.okta.com&isIdxEnabled=true"
        ),
    ])
    func oktasPictureIsRedrawnModuleForModule(fixture: String, content: String) async throws {
        let picture = try PNGImage(data: Self.recordedPicture(fixture))
        #expect(picture.width == 200 && picture.height == 200)
        let code = try QRCode(reading: picture)
        #expect((code.modules.count - 21) % 4 == 0)
        #expect(try await Self.scan(code) == content)
    }

    /// Each text line holds two module rows: a drawn half is a light module (the code reads right in light-on-dark
    /// terminals), blank is dark; reading the lines back gives the modules and a quiet zone of 2 around them.
    @Test func theTerminalDrawingHoldsEveryModule() async throws {
        let code = try QRCode(reading: PNGImage(data: Self.recordedPicture("google-otp-enroll-qrcode.json")))
        let lines = code.terminalLines(quietZone: 2)
        let side = code.modules.count + 4
        #expect(lines.count == (side + 1) / 2)
        var light: [[Bool]] = Array(repeating: Array(repeating: false, count: side), count: lines.count * 2)
        for (index, line) in lines.enumerated() {
            #expect(line.count == side)
            for (column, character) in line.enumerated() {
                light[2 * index][column] = character == "█" || character == "▀"
                light[2 * index + 1][column] = character == "█" || character == "▄"
            }
        }
        for row in 0..<side {
            for column in 0..<side {
                let (r, c) = (row - 2, column - 2)
                let dark = code.modules.indices.contains(r) && code.modules.indices.contains(c) && code.modules[r][c]
                #expect(light[row][column] == !dark, "module (\(r), \(c))")
            }
        }
    }

    @Test func picturesThatAreNotReadableSayWhy() async throws {
        #expect(throws: PNGImage.DecodingError.notPNG) { try PNGImage(data: Data("GIF89a".utf8)) }
        let real = try Self.recordedPicture("google-otp-enroll-qrcode.json")
        #expect(throws: PNGImage.DecodingError.truncated) { try PNGImage(data: real.prefix(40)) }
        var corrupt = real
        corrupt[60] ^= 0xFF  // inside the IDAT stream
        #expect(throws: (any Error).self) { try PNGImage(data: corrupt) }
        // A header claiming 5,000 × 5,000 pixels is refused before anything is allocated for it.
        var huge = real
        huge.replaceSubrange(16..<24, with: [0, 0, 0x13, 0x88, 0, 0, 0x13, 0x88])
        #expect(throws: PNGImage.DecodingError.unsupported("an image of 5000×5000 pixels")) { try PNGImage(data: huge) }
        let blank = PNGImage(width: 30, height: 30, luminance: Array(repeating: 255, count: 900))
        #expect(throws: QRCode.ReadingError.noCode) { try QRCode(reading: blank) }
    }

    /// A 16-bit RGBA header of 4096×4096 (280 MB to decode) is within the side limit but not the pixel limit: refused
    /// from its header, as is any picture over a megapixel.
    @Test func aPictureOverAMegapixelIsRefusedFromItsHeader() async throws {
        var huge = try Self.recordedPicture("google-otp-enroll-qrcode.json")
        huge.replaceSubrange(16..<26, with: [0, 0, 0x10, 0x00, 0, 0, 0x10, 0x00, 16, 6])
        #expect(throws: PNGImage.DecodingError.unsupported("an image of 4096×4096 pixels")) { try PNGImage(data: huge) }
        var justOver = huge
        justOver.replaceSubrange(16..<24, with: [0, 0, 0x04, 0x01, 0, 0, 0x04, 0x00])
        #expect(throws: PNGImage.DecodingError.unsupported("an image of 1025×1024 pixels")) { try PNGImage(data: justOver) }
        // Within the limit, a header that promises more than its data holds is corrupt, not a crash.
        var promising = huge
        promising.replaceSubrange(16..<24, with: [0, 0, 0x04, 0x00, 0, 0, 0x04, 0x00])
        #expect(throws: PNGImage.DecodingError.corrupt("image data that does not inflate to its size")) { try PNGImage(data: promising) }
    }

    /// A code whose dark box touches the picture's bottom edge and is a little shorter than wide: every sample stays
    /// inside the picture (the last row's once fell one pixel past it and trapped).
    @Test func aCodeTouchingTheBottomEdgeIsSampledInsideThePicture() async throws {
        // 21 modules of 3 pixels, the last row cut to one pixel by the picture's edge: the left column is dark, and
        // the first row holds the two top finder patterns' first rows.
        let (width, height, module) = (63, 61, 3)
        func dark(_ row: Int, _ column: Int) -> Bool { column == 0 || (row == 0 && (column < 7 || column >= 14)) }
        let pixels = (0..<height).flatMap { y in (0..<width).map { x in dark(y / module, x / module) ? UInt8(0) : 255 } }
        let code = try QRCode(reading: PNGImage(width: width, height: height, luminance: pixels))
        #expect(code.modules.count == 21)
        #expect(code.modules.allSatisfy { $0.count == 21 })
        #expect(code.modules.map { $0[0] }.allSatisfy { $0 }, "the left column is dark down to the bottom row")
        #expect(code.modules[0][0..<7].allSatisfy { $0 } && !code.modules[0][7])
    }
}
