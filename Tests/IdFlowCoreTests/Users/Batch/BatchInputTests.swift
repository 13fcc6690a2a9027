import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

struct BatchInputTests {
    /// `register --batch users.csv` needs no `--format`, nor does a CSV piped to `--batch -`.
    @Test func theFormatIsToldByTheExtensionThenTheFirstLine() {
        let csv = Data("email,firstName\na@example.com,A\n".utf8)
        let ndjson = Data("\n  {\"email\":\"a@example.com\"}\n".utf8)
        #expect(BatchFormat.detect(fileName: "users.csv", data: ndjson) == .csv, "the extension wins")
        #expect(BatchFormat.detect(fileName: "users.JSONL", data: csv) == .ndjson)
        #expect(BatchFormat.detect(fileName: "users.ndjson", data: csv) == .ndjson)
        #expect(BatchFormat.detect(fileName: nil, data: csv) == .csv)
        #expect(BatchFormat.detect(fileName: "/dev/fd/63", data: csv) == .csv)
        #expect(BatchFormat.detect(fileName: nil, data: ndjson) == .ndjson)
        #expect(BatchFormat.detect(fileName: nil, data: Data()) == .ndjson)
    }

    @Test func ndjsonLinesKeepTheirFileNumbersAndBlankLinesAreSkipped() throws {
        let input = """
            {"email":"a@example.com","firstName":"A","attrs":{"department":"R&D","employeeNumber":7}}

            {"email":"b@example.com","login":"bee@example.com"}
            """
        let lines = try BatchInput.parse(Data(input.utf8), format: .ndjson)
        #expect(lines.map(\.number) == [1, 3])
        #expect(
            try lines[0].user.get()
                == BatchUser(email: "a@example.com", firstName: "A", attributes: ["department": "R&D", "employeeNumber": 7]))
        #expect(try lines[1].user.get() == BatchUser(email: "b@example.com", login: "bee@example.com"))
    }

    @Test(arguments: [
        ("{not json", "not a JSON object"), (#"["a@example.com"]"#, "not a JSON object"), (#"{"firstName":"A"}"#, "no email"),
        (#"{"email":"nobody"}"#, "is not an e-mail address"), (#"{"email":"a@example.com","dept":"x"}"#, "unknown key dept"),
        (#"{"email":"a@example.com","attrs":"x"}"#, "attrs is not an object"),
        (#"{"email":"a@example.com","attrs":{"login":"x"}}"#, "repeats a dedicated field"),
    ])
    func aMalformedNdjsonLineIsAnErrorForThatLineOnly(line: String, message: String) throws {
        let input = "{\"email\":\"ok@example.com\"}\n\(line)\n{\"email\":\"ok2@example.com\"}\n"
        let lines = try BatchInput.parse(Data(input.utf8), format: .ndjson)
        #expect(lines.count == 3)
        #expect((try? lines[0].user.get()) != nil)
        #expect((try? lines[2].user.get()) != nil)
        guard case .failure(let error) = lines[1].user else {
            Issue.record("line 2 should be malformed")
            return
        }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.exitStatus == .usage)
    }

    @Test func csvUsesTheHeaderAndQuotesAndMakesOtherColumnsAttributes() throws {
        let input =
            "email,firstName,lastName,login,department\r\n"
            + "a@example.com,\"Doe, Jo\",,,\"R&D \"\"labs\"\"\"\r\n"
            + "b@example.com,B,Bee,bee@example.com,\r\n"
            + "c@example.com,too,few\r\n"
        let lines = try BatchInput.parse(Data(input.utf8), format: .csv)
        #expect(lines.map(\.number) == [2, 3, 4])
        #expect(
            try lines[0].user.get() == BatchUser(email: "a@example.com", firstName: "Doe, Jo", attributes: ["department": "R&D \"labs\""]))
        #expect(try lines[1].user.get() == BatchUser(email: "b@example.com", firstName: "B", lastName: "Bee", login: "bee@example.com"))
        guard case .failure(let error) = lines[2].user else {
            Issue.record("line 4 has too few fields")
            return
        }
        #expect(error.message == "3 fields where the header has 5")
    }

    @Test func aCsvWithoutAnEmailColumnIsRefusedWhole() {
        #expect(throws: IdFlowError.self) { try BatchInput.parse(Data("name,login\nx,y\n".utf8), format: .csv) }
    }
}
