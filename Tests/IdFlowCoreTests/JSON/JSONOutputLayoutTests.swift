import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

/// Pretty output at a terminal is laid out as jq prints it (`"key": value`, two spaces a level, `{}` and `[]`),
/// and holds exactly what the compact output holds.
struct JSONOutputLayoutTests {
    struct Sample: Encodable {
        var name = "Jo \"the\" {x}: [y], z\\"
        var url = "https://example.okta.com/a"
        var count = 12_345_678_901_234
        var empty: [String: Int] = [:]
        var none: [Int] = []
        var nested = ["b": [1, 2], "a": [3]]
    }

    @Test func prettyIsLaidOutAsJqPrintsIt() throws {
        let pretty = String(decoding: try JSONOutput.encode(Sample(), style: .pretty), as: UTF8.self)
        let expected = """
            {
              "count": 12345678901234,
              "empty": {},
              "name": "Jo \\"the\\" {x}: [y], z\\\\",
              "nested": {
                "a": [
                  3
                ],
                "b": [
                  1,
                  2
                ]
              },
              "none": [],
              "url": "https://example.okta.com/a"
            }

            """
        #expect(pretty == expected)
    }

    @Test func prettyAndCompactHoldTheSameDocument() throws {
        let pretty = try JSONOutput.encode(Sample(), style: .pretty)
        let compact = try JSONOutput.encode(Sample(), style: .compact)
        let a = try JSONSerialization.jsonObject(with: pretty) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: compact) as? NSDictionary
        #expect(a != nil && a == b)
        #expect(!String(decoding: compact, as: UTF8.self).dropLast().contains("\n"))
    }
}
