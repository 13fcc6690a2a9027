import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// An org that goes away mid-batch: every line is still reported, the lines not yet sent at once, and the run
/// ends as a network failure (exit 6) whose hint says what to rerun.
struct BatchOutageTests {
    func ndjson(_ count: Int) -> Data { BatchHarness.ndjson(count) }

    /// Answers as `server` does, except for the requests `failure` names by their number (1-based), which fail
    /// with that transport error.
    final class FailingTransport: HTTPTransport, Sendable {
        let server = FakeUsersServer()
        let sent = Locked(0)
        let failure: @Sendable (Int) -> TransportFailure.Kind?

        init(_ failure: @escaping @Sendable (Int) -> TransportFailure.Kind?) {
            self.failure = failure
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let number = sent.withLock { count in
                count += 1
                return count
            }
            if let code = failure(number) { throw TransportFailure(code) }
            return try answer(request)
        }

        func answer(_ request: HTTPRequest) throws -> HTTPResponse {
            guard let reply = server.reply(request) else { throw TransportFailure(.badServerResponse) }
            return HTTPResponse(status: reply.status, headers: reply.headers, body: reply.body, url: request.url)
        }
    }

    /// An org that answers the first `lines` lines' requests and is gone for every later line's, whichever is sent
    /// first: a later line's request waits until the earlier lines have had their answers, then fails. With two
    /// lines under way, line 6 may reach the transport before line 5; numbering requests would then fail line 5.
    final class VanishingOrg: HTTPTransport, Sendable {
        let base = FailingTransport { _ in nil }
        let lines: Int
        let failure: TransportFailure.Kind
        private let gate = Locked<(answered: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

        init(answering lines: Int, then failure: TransportFailure.Kind) {
            self.lines = lines
            self.failure = failure
        }

        var sent: Locked<Int> { base.sent }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            base.sent.withLock { $0 += 1 }
            let email = request.jsonBody?["profile"]?["login"]?.stringValue ?? ""
            let line = Int(email.dropFirst("user".count).prefix { $0.isNumber }) ?? 0
            guard line > lines else {
                let response = try base.answer(request)
                let ready = gate.withLock { gate -> [CheckedContinuation<Void, Never>] in
                    gate.answered += 1
                    guard gate.answered >= lines else { return [] }
                    defer { gate.waiting = [] }
                    return gate.waiting
                }
                for waiter in ready { waiter.resume() }
                return response
            }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = gate.withLock { gate -> Bool in
                    if gate.answered >= lines { return true }
                    gate.waiting.append(waiter)
                    return false
                }
                if now { waiter.resume() }
            }
            throw TransportFailure(failure)
        }
    }

    func run(_ flow: BatchRegistration, transport: any HTTPTransport, messages: Locked<[String]> = Locked([])) async throws -> (
        BatchRegistration.Summary, [BatchRegistration.LineResult]
    ) {
        try await BatchHarness.run(flow, transport: transport, messages: messages)
    }

    @Test(arguments: [TransportFailure.Kind.cannotConnectToHost, .timedOut, .cannotFindHost])
    func theLinesAfterTheOrgWentAwayAreReportedUnsentAndTheRunExits6(failure: TransportFailure.Kind) async throws {
        // The org answers five lines, then is gone.
        let transport = VanishingOrg(answering: 5, then: failure)
        let messages = Locked<[String]>([])
        let (summary, lines) = try await run(
            BatchRegistration(source: .data(ndjson(200)), concurrency: 2), transport: transport, messages: messages)
        #expect(lines.map(\.line) == Array(1...200), "every line is reported, in input order")
        #expect(lines.prefix(5).allSatisfy { $0.ok })
        #expect(lines.dropFirst(5).allSatisfy { !$0.ok && $0.error?.kind == "network" && $0.error?.exitCode == 6 })
        let unsent = lines.filter { $0.error?.message.contains("this line was not sent") == true }
        #expect(unsent.count >= 200 - 5 - 2, "at most the lines under way when it went away were sent")
        #expect(unsent.allSatisfy { $0.error?.hint?.contains("--skip-existing") == true })
        // Each line under way spends its own retries (3 after the first attempt); the rest send nothing.
        #expect(transport.sent.current <= 5 + 2 * 4, "\(transport.sent.current) requests")

        let outage = try #require(summary.outage)
        #expect(outage.line == 6 || outage.line == 7, "one of the two lines under way found the org gone")
        #expect(outage.notSent == unsent.count)
        #expect(summary.created == 5 && summary.failed == 195 && summary.exitStatus == .network)
        let failure = try #require(summary.failure)
        #expect(failure.kind == "batch_failed" && failure.exitStatus == .network)
        #expect(failure.hint?.contains("the org stopped answering at line \(outage.line)") == true)
        #expect(failure.hint?.contains("--skip-existing") == true)
        #expect(messages.current.last?.contains("the org stopped answering at line \(outage.line)") == true, "\(messages.current)")
    }

    /// One broken connection while the org answers the rest is that line's trouble, not an outage.
    @Test func aLostConnectionAmongAnswersFailsOnlyItsLine() async throws {
        let transport = FailingTransport { $0 == 3 ? .networkConnectionLost : nil }
        let (summary, lines) = try await run(BatchRegistration(source: .data(ndjson(20)), concurrency: 1), transport: transport)
        #expect(lines.map(\.line) == Array(1...20))
        #expect(lines.filter { !$0.ok }.map(\.line) == [3], "a create cut off mid-answer is not sent again")
        #expect(summary.outage == nil)
        #expect(summary.created == 19 && summary.exitStatus == .network)
        #expect(summary.failure?.hint?.hasPrefix("fix the failed lines") == true)
    }

    /// A refused connection that the retry gets through is no outage either.
    @Test func aRefusedConnectionThatARetryGetsThroughIsNoOutage() async throws {
        let transport = FailingTransport { $0 == 2 || $0 == 3 ? .cannotConnectToHost : nil }
        let (summary, lines) = try await run(BatchRegistration(source: .data(ndjson(10)), concurrency: 1), transport: transport)
        #expect(lines.count == 10 && lines.allSatisfy { $0.ok })
        #expect(summary.outage == nil && summary.exitStatus == .success)
    }

    /// The interrupted batch's hint says what its message says: how many users were created, and that a rerun
    /// with --skip-existing finishes; never that nothing was stored.
    @Test func theInterruptedHintAgreesWithTheMessage() async throws {
        let (summary, lines, _) = try await BatchHarness.interruptedAfterTwoCreates()
        let error = try #require(summary.failure)
        #expect(error.exitStatus == .interrupted && error.kind == "interrupted")
        let done = lines.count
        #expect(error.message.contains("created \(done), skipped 0, failed 0 of 20 lines"), "\(error.message)")
        #expect(error.message.contains("interrupted after \(done) lines: rerun with --skip-existing to finish"))
        let hint = try #require(error.hint)
        #expect(hint.contains("\(done) users were created and \(20 - done) lines were not run"), "\(hint)")
        #expect(hint.contains("run the same command again with --skip-existing"))
        #expect(!hint.contains("nothing was stored"))
    }

    /// Interrupted before a line was done: nothing was created, and both say so.
    @Test func anInterruptionBeforeAnyLineSaysNoUserWasCreated() async throws {
        let interruption = BatchInterruption()
        interruption.trigger()
        let (summary, lines) = try await run(
            BatchRegistration(source: .data(ndjson(5)), interruption: interruption), transport: RoutedTransport { _ in nil })
        #expect(lines.isEmpty)
        let error = try #require(summary.failure)
        #expect(error.message.contains("interrupted before any line was done: no user was created"), "\(error.message)")
        #expect(error.hint == "no line was done, so no user was created; run the same command again")
    }

    /// Other waits keep the default: nothing was stored.
    @Test func anInterruptedWaitStillSaysNothingWasStored() {
        #expect(IdFlowError.interrupted("interrupted while waiting for the device sign-in").hint?.hasPrefix("nothing was stored") == true)
    }
}
