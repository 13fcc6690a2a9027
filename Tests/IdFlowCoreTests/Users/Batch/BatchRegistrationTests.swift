import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small Users API over a dictionary: create (E0000001 for a taken login), get by id or login, activate.
final class FakeUsersServer: Sendable {
    let users = Locked<[String: (id: String, status: String)]>([:])
    let maxInFlight = Locked((now: 0, max: 0))

    static let duplicate =
        #"{"errorCode":"E0000001","errorSummary":"Api validation failed: login","errorLink":"E0000001","errorId":"oae1","errorCauses":[{"errorSummary":"login: An object with this field already exists in the current organization"}]}"#

    func userJSON(login: String, id: String, status: String) -> String {
        #"{"id":"\#(id)","status":"\#(status)","profile":{"login":"\#(login)","email":"\#(login)"}}"#
    }

    func reply(_ request: HTTPRequest) -> RoutedTransport.Reply? {
        let segments = request.url.path.split(separator: "/").map(String.init)
        switch (request.method, segments.count) {
        case ("POST", 3):
            guard let login = request.jsonBody?["profile"]?["login"]?.stringValue else { return nil }
            return users.withLock { users in
                if users[login] != nil { return .json(400, Self.duplicate) }
                let id = "00u\(users.count + 1)"
                users[login] = (id, "STAGED")
                return .json(200, userJSON(login: login, id: id, status: "STAGED"))
            }
        case ("GET", 4):
            let key = segments[3]
            return users.withLock { users in
                guard let (login, user) = users.first(where: { $0.key == key || $0.value.id == key }) else {
                    return .json(404, #"{"errorCode":"E0000007","errorSummary":"Not found","errorCauses":[]}"#)
                }
                return .json(200, userJSON(login: login, id: user.id, status: user.status))
            }
        case ("POST", 6) where segments[5] == "activate":
            users.withLock { users in
                if let login = users.first(where: { $0.value.id == segments[3] })?.key { users[login]?.status = "PROVISIONED" }
            }
            return .json(
                200,
                #"{"activationToken":"tok-\#(segments[3])","activationUrl":"https://example.okta.com/tokens/tok-\#(segments[3])/verify"}"#)
        default:
            return nil
        }
    }
}

/// Answers after a delay chosen per request, so requests sent in order come back out of order.
struct DelayingTransport: HTTPTransport {
    var base: RoutedTransport
    var server: FakeUsersServer
    var delay: @Sendable (HTTPRequest) -> Duration

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        server.maxInFlight.withLock {
            $0.now += 1
            $0.max = max($0.max, $0.now)
        }
        defer { server.maxInFlight.withLock { $0.now -= 1 } }
        try await Task.sleep(for: delay(request))
        return try await base.send(request)
    }
}

struct BatchRegistrationTests {
    func ndjson(_ count: Int, from first: Int = 1) -> Data { BatchHarness.ndjson(count, from: first) }

    func run(_ flow: BatchRegistration, transport: any HTTPTransport, messages: Locked<[String]> = Locked([])) async throws -> (
        BatchRegistration.Summary, [BatchRegistration.LineResult]
    ) {
        try await BatchHarness.run(flow, transport: transport, messages: messages)
    }

    @Test func linesComeOutInInputOrderWhenAnswersArriveOutOfOrder() async throws {
        let server = FakeUsersServer()
        let transport = DelayingTransport(base: RoutedTransport(server.reply), server: server) { request in
            // The first lines answer last.
            let login = request.jsonBody?["profile"]?["login"]?.stringValue ?? ""
            let number = Int(login.dropFirst(4).prefix { $0.isNumber }) ?? 0
            return .milliseconds(5 * (17 - number))
        }
        let messages = Locked<[String]>([])
        let (summary, lines) = try await run(
            BatchRegistration(source: .data(ndjson(16)), concurrency: 8), transport: transport, messages: messages)
        #expect(lines.map(\.line) == Array(1...16))
        #expect(lines.allSatisfy { $0.ok })
        #expect(lines.map { $0.user?["profile"]?["login"]?.stringValue } == (1...16).map { "user\($0)@example.com" })
        #expect(server.maxInFlight.current.max == 8, "eight requests in flight at once")
        #expect(summary.created == 16 && summary.requests == 16 && summary.exitStatus == .success)
        #expect(messages.current.last?.hasPrefix("created 16, skipped 0, failed 0 of 16 lines") == true)
    }

    @Test func aMalformedLineIsReportedAndTheRestRun() async throws {
        let server = FakeUsersServer()
        let input = Data("{\"email\":\"a@example.com\"}\n{oops\n{\"email\":\"b@example.com\"}\n".utf8)
        let (summary, lines) = try await run(BatchRegistration(source: .data(input)), transport: RoutedTransport(server.reply))
        #expect(lines.map(\.ok) == [true, false, true])
        #expect(lines[1].line == 2 && lines[1].error?.kind == "invalid_input" && lines[1].error?.exitCode == 64)
        #expect(summary.failed == 1 && summary.exitStatus == .usage)
    }

    @Test func activateReportsTheProvisionedUserWithItsToken() async throws {
        let server = FakeUsersServer()
        let (_, lines) = try await run(
            BatchRegistration(source: .data(ndjson(2)), activate: true), transport: RoutedTransport(server.reply))
        #expect(lines.map { $0.user?["status"]?.stringValue } == ["PROVISIONED", "PROVISIONED"])
        // The fake server numbers users in arrival order, which concurrency does not fix: each line carries the
        // token of its own user.
        for line in lines {
            let id = line.user?["id"]?.stringValue ?? "?"
            #expect(line.activationToken == "tok-\(id)")
            #expect(line.activationUrl == "https://example.okta.com/tokens/tok-\(id)/verify")
        }
        #expect(Set(lines.compactMap(\.activationToken)) == ["tok-00u1", "tok-00u2"])
    }

    @Test func skipExistingLooksTheUserUpAndActivatesOneLeftStaged() async throws {
        let server = FakeUsersServer()
        server.users.withLock { $0["user1@example.com"] = ("00u9", "STAGED") }
        let transport = RoutedTransport(server.reply)
        let (summary, lines) = try await run(
            BatchRegistration(source: .data(ndjson(2)), activate: true, skipExisting: true), transport: transport)
        #expect(lines[0].skipped == true && lines[0].user?["id"]?.stringValue == "00u9" && lines[0].activationToken == "tok-00u9")
        #expect(lines[1].skipped == nil && lines[1].ok)
        #expect(summary.skipped == 1 && summary.created == 1 && summary.exitStatus == .success)
    }

    @Test func withoutSkipExistingADuplicateFailsItsLineWithExit3() async throws {
        let server = FakeUsersServer()
        server.users.withLock { $0["user2@example.com"] = ("00u9", "STAGED") }
        let (summary, lines) = try await run(BatchRegistration(source: .data(ndjson(3))), transport: RoutedTransport(server.reply))
        #expect(lines.map(\.ok) == [true, false, true])
        #expect(lines[1].error?.errorCode == "E0000001")
        #expect(summary.exitStatus == .rejected)
    }

    @Test func anInterruptionFinishesWhatIsUnderWayAndTakesNoMoreLines() async throws {
        let (summary, lines, server) = try await BatchHarness.interruptedAfterTwoCreates()
        #expect(summary.interrupted && summary.exitStatus == .interrupted)
        #expect(lines.count >= 3 && lines.count <= 4, "the lines under way are finished, no new one is started")
        #expect(lines.map(\.line) == Array(1...lines.count))
        #expect(lines.allSatisfy { $0.ok })
        #expect(server.users.current.count == lines.count, "every user created is reported")
    }

    @Test(arguments: [
        ([IdFlowExitCode.rejected, .usage, .notFound], IdFlowExitCode.notFound), ([.rejected, .network, .authentication], .authentication),
        ([.server, .rejected], .server), ([], .success),
    ])
    func theExitCodeIsTheMostSevereFailure(failures: [IdFlowExitCode], expected: IdFlowExitCode) {
        #expect((BatchRegistration.mostSevere(failures) ?? .success) == expected)
    }
}

struct BatchRetryAndProgressTests {
    @Test func a429FromAnotherClientIsRetriedAndTheLineStillSucceeds() async throws {
        let server = FakeUsersServer()
        let throttled = Locked(false)
        let transport = RoutedTransport { request in
            let first = throttled.withLock { seen in
                defer { seen = true }
                return !seen
            }
            if first {
                return .init(
                    status: 429, headers: ["Content-Type": "application/json", "X-Rate-Limit-Remaining": "0", "X-Rate-Limit-Reset": "0"],
                    body: Data(
                        #"{"errorCode":"E0000047","errorSummary":"API call exceeded rate limit due to too many requests.","errorCauses":[]}"#
                            .utf8))
            }
            return server.reply(request)
        }
        let emitted = Locked<[BatchRegistration.LineResult]>([])
        let summary = try await BatchRegistration(source: .data(Data(#"{"email":"a@example.com"}"#.utf8))).run(
            TestContext.make(transport: transport)
        ) { line in emitted.withLock { $0.append(line) } }
        #expect(emitted.current.map(\.ok) == [true])
        #expect(summary.requests == 2, "the 429 and its retry")
        #expect(summary.exitStatus == .success)
    }

    @Test func theProgressLineShowsDoneRateAndETA() {
        #expect(
            BatchProgress.line(done: 250, total: 1000, elapsed: .seconds(10)) == "[#####...............]  250/1000  25.0 lines/s  ETA 0:30")
        #expect(BatchProgress.line(done: 0, total: 10, elapsed: .zero).hasSuffix("ETA --:--"))
    }

    func ndjson(_ count: Int) -> Data { BatchHarness.ndjson(count) }

    /// Runs a three-line batch with stderr captured as bytes, on a console that draws progress as told.
    func stderr(of flow: BatchRegistration, progress: Bool, erasesLines: Bool, quiet: Bool = false) async throws -> String {
        let server = FakeUsersServer()
        let written = Locked(Data())
        let console = Console(
            standardOutput: { _ in }, standardError: { data in written.withLock { $0.append(data) } }, readStandardInput: { Data() },
            readLine: { nil }, showsProgress: progress, erasesLines: erasesLines)
        let base = TestContext.make(transport: RoutedTransport(server.reply))
        var configuration = base.configuration
        configuration.quiet = quiet
        let context = IdFlowContext(configuration: configuration, http: base.http, secrets: base.secrets, console: console)
        _ = try await flow.run(context) { _ in }
        return String(decoding: written.current, as: UTF8.self)
    }

    /// `ESC[K` only where it works: a terminal whose TERM is not `dumb`; elsewhere the bar is overwritten with
    /// spaces, and a pipe gets no bar at all.
    @Test func theProgressBarErasesWithANSIOnlyOnATerminalThatUnderstandsIt() async throws {
        let ansi = try await stderr(of: BatchRegistration(source: .data(ndjson(3)), concurrency: 1), progress: true, erasesLines: true)
        #expect(ansi.contains("\r[") && ansi.contains("\u{1B}[K"))
        let dumb = try await stderr(of: BatchRegistration(source: .data(ndjson(3)), concurrency: 1), progress: true, erasesLines: false)
        #expect(dumb.contains("\r[####################]  3/3"))
        #expect(!dumb.contains("\u{1B}"))
        #expect(dumb.contains("\r" + String(repeating: " ", count: 40)), "the bar is blanked out before the summary")
        let piped = try await stderr(of: BatchRegistration(source: .data(ndjson(3)), concurrency: 1), progress: false, erasesLines: false)
        #expect(!piped.contains("\u{1B}") && !piped.contains("\r"))
        #expect(piped.hasPrefix("created 3, skipped 0, failed 0 of 3 lines"))
        #expect(!Console.understandsANSI("dumb") && !Console.understandsANSI(nil) && Console.understandsANSI("xterm-256color"))
    }

    /// `--summary-json` ends stderr with the summary as JSON; with `--quiet` it is all stderr holds.
    @Test func theSummaryLineIsJSONAndSurvivesQuiet() async throws {
        let flow = BatchRegistration(source: .data(ndjson(3)), summaryJSON: true)
        let loud = try await stderr(of: flow, progress: false, erasesLines: false)
        let lines = loud.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("created 3") == true)
        let summary = try #require(try JSONValue(data: Data((lines.last ?? "").utf8))["summary"])
        #expect(summary["lines"] == 3)
        #expect(summary["created"] == 3)
        #expect(summary["skipped"] == 0)
        #expect(summary["failed"] == 0)
        #expect(summary["notRun"] == 0)
        #expect(summary["requests"] == 3)
        #expect(summary["interrupted"] == false)
        #expect(summary["exitCode"] == 0)
        if case .number(let seconds)? = summary["elapsedSeconds"] { #expect(seconds >= 0) } else { Issue.record("no elapsedSeconds") }

        let quiet = try await stderr(of: flow, progress: true, erasesLines: true, quiet: true)
        #expect(quiet.split(separator: "\n").count == 1, "no bar, no human summary: \(quiet)")
        #expect(try JSONValue(data: Data(quiet.utf8))["summary"]?["created"] == 3)
    }
}
