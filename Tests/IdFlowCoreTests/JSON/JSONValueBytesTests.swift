import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// `JSONValue(parsing:)` and `compactJSON()` stand in for `JSONDecoder` and `JSONOutput`'s compact encoder on the
/// batch's path, so they must give what those give: the same documents, the same bytes, the same refusals.
struct JSONValueBytesTests {
    private func decoded(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private func parsed(_ text: String) -> JSONValue? {
        try? JSONValue(parsing: Data(text.utf8))
    }

    private func encoded(_ value: JSONValue) throws -> [UInt8] {
        Array(try JSONOutput.encode(value, style: .compact).dropLast())
    }

    @Test func everyRecordedOktaAnswerParsesAsTheDecoderReadsItAndWritesAsTheEncoderWritesIt() throws {
        var compared = 0
        for family in ["okta-core", "okta-devices", "okta-idx"] {
            for file in try Fixtures.files(in: family) where file.hasSuffix(".json") {
                let data = try Fixtures.data("\(family)/\(file)")
                let viaDecoder = try? JSONDecoder().decode(JSONValue.self, from: data)
                let viaParser = try? JSONValue(parsing: data)
                #expect(viaParser == viaDecoder, "\(family)/\(file)")
                guard let value = viaParser else { continue }
                compared += 1
                if let written = value.compactJSON() {
                    #expect(written == (try encoded(value)), "\(family)/\(file)")
                }
            }
        }
        #expect(compared > 20)
    }

    @Test(arguments: [
        #"{"a":1,"a":2}"#, #"{"b":[1,-0,0.5,-1.25e3,1E2,2e-2,123456789012]}"#, #"" \u00e9\ud83d\ude00 \"\\\/\b\f\n\r\t\u0001""#,
        #"  [true, false, null, {}, [], ""]  "#, #"{"é":"x","a":{"z":1,"A":2,"_":3,"a10":4,"a9":5}}"#, "\"\u{7F}\u{2028}é😀\"",
        // refused by both, or (a trailing comma) accepted by both
        "", " ", "[1] x", "[01]", "[1.]", "[.5]", "[+1]", "[1e]", "[-]", "{\"a\" 1}", "\"\\ud83d\"",
        "\"\\ude00\"", "\"\\x\"", "{\"a\":1,}", "[1,]", "[,]", "{,}", "[1,,]", "[1 2]", "\"a\u{01}\"", "\"abc", "tru", "nul", "[1e400]",
        "{1:2}", "[\"\\u12G4\"]",
    ])
    func parsesAndRefusesAsTheDecoderDoes(_ text: String) {
        #expect(parsed(text) == decoded(text), "\(text)")
    }

    @Test func nestingDeeperThanTheDecoderAllowsIsRefused() {
        #expect(parsed(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) == nil)
        #expect(parsed(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) != nil)
    }

    @Test func writesTheEncodersBytes() throws {
        let values: [JSONValue] = [
            ["z": 1, "A": "a/b", "_links": ["self": ["href": "https://x.example/api/v1/users/00u1"]], "a10": true, "a9": nil],
            ["s": .string("\"\\\u{8}\u{C}\n\r\t\u{0}\u{1B}\u{1F}\u{7F}é😀\u{2028}")], [1, -2, 0, 123_456_789_012, .number(-0.0)], [:], [],
            ["é": 1, "e": 2, "f": 3, "E": 4],
        ]
        for value in values {
            #expect(value.compactJSON() == (try encoded(value)), "\(value)")
        }
        #expect(JSONValue.number(1.5).compactJSON() == nil, "a fraction is left to the encoder")
        #expect(JSONValue.array([.number(0.1)]).compactJSON() == nil)
    }

    @Test func aBatchLineWritesTheEncodersBytes() throws {
        let user: JSONValue = ["id": "00u1", "status": "STAGED", "profile": ["login": "a@example.com", "email": "a@example.com"]]
        let lines = [
            BatchRegistration.LineResult(line: 3, ok: true, user: user),
            BatchRegistration.LineResult(
                line: 12, ok: true, user: user, skipped: true, activationToken: "tok", activationUrl: "https://x.example/a?t=tok"),
        ]
        for line in lines {
            let viaEncoder = try JSONEncoder.sortedCompact.encode(line) + Data([0x0A])
            #expect(try JSONOutput.encode(line, style: .compact) == viaEncoder)
            #expect(line.compactJSON() != nil)
        }
    }
}

extension JSONEncoder {
    fileprivate static var sortedCompact: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
