import Foundation
import IdFlowTestSupport
import Testing

/// What a command that talks to no server starts: nothing of NIO (the sandbox's Hummingbird server, its event
/// loops) may run in it. NIO names its threads `NIO-ELT-…` (event loops) and `NIO-SGLTN-…` (singletons).
@Suite(.serialized)
struct StartupTests {
    @Test func aCommandThatNeedsNoServerStartsNoNIOThread() async throws {
        // `token inspect -` waits for the token on stdin: by then start-up and parsing are over.
        let session = try InteractiveSession.start(["token", "inspect", "-"], environment: ["HOME": NSTemporaryDirectory()])
        let pid = session.processIdentifier
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !Self.threads(of: pid).contains(where: { $0.waitingIn.contains("pipe") }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let threads = Self.threads(of: pid)
        #expect(!threads.isEmpty, "the process was running")
        #expect(threads.allSatisfy { !$0.name.hasPrefix("NIO-") }, "threads: \(threads.map(\.name))")
        _ = try await session.finish(stdin: "", timeout: .seconds(30))
    }

    @Test func theSandboxDoesRunNIOThreadsSoTheCheckAboveCanSeeThem() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let names = Self.threads(of: sandbox.process.processIdentifier).map(\.name)
        #expect(names.contains { $0.hasPrefix("NIO-") }, "threads: \(names)")
    }

    /// The threads of `pid` from /proc: name (`comm`) and the kernel function it sleeps in (`wchan`).
    static func threads(of pid: Int32) -> [(name: String, waitingIn: String)] {
        let tasks = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return ids.compactMap { id in
            guard let name = try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8) else { return nil }
            let wchan = (try? String(contentsOfFile: "\(tasks)/\(id)/wchan", encoding: .utf8)) ?? ""
            return (name.trimmingCharacters(in: .whitespacesAndNewlines), wchan)
        }
    }
}
