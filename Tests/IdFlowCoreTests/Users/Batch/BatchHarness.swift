import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport

/// What the batch suites share: numbered users as NDJSON, a run that collects the lines it reports, and a run
/// stopped as Ctrl-C would stop it.
enum BatchHarness {
    /// `count` lines `{"email":"userN@example.com"}`, numbered from `first`.
    static func ndjson(_ count: Int, from first: Int = 1) -> Data {
        Data((first..<first + count).map { #"{"email":"user\#($0)@example.com"}"# }.joined(separator: "\n").utf8)
    }

    /// Runs `flow` over `transport` and returns its summary with every line it reported, in the order reported.
    static func run(_ flow: BatchRegistration, transport: any HTTPTransport, messages: Locked<[String]> = Locked([])) async throws -> (
        BatchRegistration.Summary, [BatchRegistration.LineResult]
    ) {
        let emitted = Locked<[BatchRegistration.LineResult]>([])
        let summary = try await flow.run(TestContext.make(transport: transport, messages: messages)) { line in
            emitted.withLock { $0.append(line) }
        }
        return (summary, emitted.current)
    }

    /// A batch of 20 lines at concurrency 2 whose third create finds the interruption triggered, as Ctrl-C during
    /// the run would; returns what the run reported and the users the server holds.
    static func interruptedAfterTwoCreates() async throws -> (BatchRegistration.Summary, [BatchRegistration.LineResult], FakeUsersServer) {
        let server = FakeUsersServer()
        let interruption = BatchInterruption()
        let transport = RoutedTransport { request in
            if server.users.current.count == 2 { interruption.trigger() }
            return server.reply(request)
        }
        let (summary, lines) = try await run(
            BatchRegistration(source: .data(ndjson(20)), concurrency: 2, interruption: interruption), transport: transport)
        return (summary, lines, server)
    }
}
