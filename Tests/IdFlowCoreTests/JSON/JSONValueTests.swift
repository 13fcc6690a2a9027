import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Every document idflow passes through (a created user, a token response) keeps its kinds: a boolean is not a
/// number, a whole number is not a boolean, and nothing is lost on the way back out.
struct JSONValueTests {
    @Test func everyKindIsReadAsItselfAtAnyDepth() throws {
        let text = #"{"a":true,"b":1,"c":1.5,"d":false,"e":null,"f":"x","g":[0,true,"y",{"h":[]}],"i":{"j":{"k":"1"}}}"#
        let value = try JSONValue(data: Data(text.utf8))
        #expect(value["a"] == .bool(true))
        #expect(value["b"] == .number(1))
        #expect(value["c"] == .number(1.5))
        #expect(value["d"] == .bool(false))
        #expect(value["e"] == .null)
        #expect(value["f"] == .string("x"))
        #expect(value["g"] == .array([.number(0), .bool(true), .string("y"), .object(["h": .array([])])]))
        #expect(value["i"]?["j"]?["k"] == .string("1"), "a string of digits stays a string")
        let again = try JSONValue(data: JSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test
    func everyRecordedOktaAnswerSurvivesTheRoundTrip() throws {
        func canonical(_ data: Data) throws -> Data {
            let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        }
        let files = try Fixtures.files(in: "okta-core").filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            let data = try Fixtures.data("okta-core/\(file)")
            guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else { continue }
            let value = try JSONValue(data: data)
            #expect(try canonical(JSONEncoder().encode(value)) == canonical(data), "\(file)")
        }
    }
}
