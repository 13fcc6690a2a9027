import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `register --batch` as a script sees it: one NDJSON line per input line on stdout, the summary on stderr,
/// the exit code of the worst line.
@Suite struct RegisterBatchCommandTests {
    let configuration = ["--org-url", OktaReplies.org]
    let apiToken = CLI.isolatedEnvironment(["OKTA_CLIENT_TOKEN": "ssws-token"])

    /// Creates every login it is sent, except `taken@example.com`.
    let transport = RoutedTransport { request in
        guard request.route == "POST /api/v1/users", let login = request.jsonBody?["profile"]?["login"]?.stringValue else { return nil }
        if login == "taken@example.com" {
            return OktaReplies.error(
                400, code: "E0000001", summary: "Api validation failed: login",
                causes: ["login: An object with this field already exists in the current organization"])
        }
        return OktaReplies.user(id: "00u-\(login.prefix { $0 != "@" })", status: "STAGED", login: login)
    }

    func lines(_ stdout: String) -> [JSONValue] {
        stdout.split(separator: "\n").compactMap { try? JSONValue(data: Data($0.utf8)) }
    }

    @Test func stdinNdjsonGivesOneCompactLinePerInputLineInOrder() async {
        let input = #"{"email":"a@example.com","firstName":"A"}"# + "\n" + #"{"email":"b@example.com","attrs":{"title":"ops"}}"# + "\n"
        let result = await CLI.run(
            ["register", "--batch", "-", "--concurrency", "2", "--pretty"] + configuration, transport: transport, stdin: input,
            environment: apiToken)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let output = lines(result.stdout)
        #expect(result.stdout.split(separator: "\n").count == 2, "NDJSON stays one object a line even with --pretty")
        #expect(output.map { $0["line"] } == [1, 2])
        #expect(output.map { $0["ok"] } == [true, true])
        #expect(output[1]["user"]?["id"] == "00u-b")
        #expect(transport.requests.contains { $0.jsonBody?["profile"]?["title"] == "ops" })
        #expect(result.stderr.contains("created 2, skipped 0, failed 0 of 2 lines"))
    }

    @Test func aCsvFileWithADuplicateExits3AndStillReportsEveryLine() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString).csv")
        try "email,firstName\na@example.com,A\ntaken@example.com,T\nc@example.com,C\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // No --format: the extension says CSV.
        let result = await CLI.run(["register", "--batch", file.path] + configuration, transport: transport, environment: apiToken)
        #expect(result.exitCode == 3)
        let output = lines(result.stdout)
        #expect(output.map { $0["line"] } == [2, 3, 4])
        #expect(output[1]["ok"] == false)
        #expect(output[1]["error"]?["errorCode"] == "E0000001")
        #expect(output[1]["error"]?["exitCode"] == 3)
        // The run ends, as every failed run, with one error line that sums the lines up, last on stderr.
        let last = try #require(result.stderr.split(separator: "\n").last)
        let error = try #require(try JSONValue(data: Data(last.utf8))["error"])
        #expect(error["kind"] == "batch_failed")
        #expect(error["exitCode"] == 3)
        #expect(error["message"]?.stringValue?.hasPrefix("1 of 3 lines failed") == true)
    }

    @Test func aCSVPipedToStandardInputIsToldByItsFirstLine() async {
        let result = await CLI.run(
            ["register", "--batch", "-"] + configuration, transport: transport, stdin: "email,firstName\na@example.com,A\n",
            environment: apiToken)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(lines(result.stdout).map { $0["ok"] } == [true])
    }

    @Test func skipExistingReportsTheExistingUser() async {
        let withLookup = RoutedTransport { [transport] request in
            request.route == "GET /api/v1/users/taken@example.com"
                ? OktaReplies.user(id: "00uold", status: "ACTIVE", login: "taken@example.com") : transport.answer(request)
        }
        let result = await CLI.run(
            ["register", "--batch", "-", "--skip-existing"] + configuration, transport: withLookup,
            stdin: #"{"email":"taken@example.com"}"#, environment: apiToken)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(lines(result.stdout).first?["skipped"] == true)
        #expect(lines(result.stdout).first?["user"]?["id"] == "00uold")
        #expect(result.stderr.contains("created 0, skipped 1, failed 0"))
    }

    @Test func anUnreadableFileIsTheErrorLineWithNothingOnStdout() async {
        let result = await CLI.run(
            ["register", "--batch", "/nonexistent/users.ndjson"] + configuration, transport: transport, environment: apiToken)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.error?["message"]?.stringValue?.hasPrefix("cannot read the batch file /nonexistent/users.ndjson") == true)
    }
}
