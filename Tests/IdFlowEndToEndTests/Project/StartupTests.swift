import Foundation
import IdFlowTestSupport
import Testing

/// What a command that talks to no server starts: nothing of NIO (the sandbox's Hummingbird server, its event
/// loops) may run in it, and libcurl is not even loaded (idflow opens it at its first request; loading it and the
/// libraries it needs was a third of such a command's start-up). NIO names its threads `NIO-ELT-…` (event loops)
/// and `NIO-SGLTN-…` (singletons).
@Suite(.serialized)
struct StartupTests {
    @Test func aCommandThatNeedsNoServerStartsNoNIOThread() async throws {
        // `token inspect -` waits for the token on stdin: by then start-up and parsing are over.
        let session = try InteractiveSession.start(["token", "inspect", "-"], environment: ["HOME": NSTemporaryDirectory()])
        let pid = session.processIdentifier
        try await Self.waitUntilReadingStandardInput(pid)
        let threads = Self.threads(of: pid)
        #expect(!threads.isEmpty, "the process was running")
        #expect(threads.allSatisfy { !$0.name.hasPrefix("NIO-") }, "threads: \(threads.map(\.name))")
        _ = try await session.finish(stdin: "", timeout: .seconds(30))
    }

    @Test func aCommandThatNeedsNoServerDoesNotLoadLibcurl() async throws {
        let session = try InteractiveSession.start(["token", "inspect", "-"], environment: ["HOME": NSTemporaryDirectory()])
        try await Self.waitUntilReadingStandardInput(session.processIdentifier)
        let libraries = Self.mappedLibraries(of: session.processIdentifier)
        #expect(libraries.contains { $0.contains("libc.so") }, "the maps were read: \(libraries)")
        #expect(!libraries.contains { $0.contains("libcurl") || $0.contains("libssl") }, "\(libraries)")
        _ = try await session.finish(stdin: "", timeout: .seconds(30))
    }

    /// The other side: a command that has sent a request has libcurl loaded (found by its soname, as the loader
    /// looks for it), and the request went through it.
    @Test func aCommandThatSentARequestHasLoadedLibcurl() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        // `login-device` has asked for a device code (the user code it prints came back from the sandbox) and polls.
        let session = try InteractiveSession.start(["login-device"], environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.hasPrefix("{") && $0.contains("\"user_code\"") }
        let libraries = Self.mappedLibraries(of: session.processIdentifier)
        #expect(libraries.contains { $0.contains("libcurl") }, "\(libraries)")
        try await session.kill()

    }

    @Test func theSandboxDoesRunNIOThreadsSoTheCheckAboveCanSeeThem() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let names = Self.threads(of: sandbox.process.processIdentifier).map(\.name)
        #expect(names.contains { $0.hasPrefix("NIO-") }, "threads: \(names)")
    }

    /// Waits (at most 30 s) until a thread of `pid` sleeps reading a pipe: start-up, parsing and whatever the
    /// command does before its prompt are over.
    static func waitUntilReadingStandardInput(_ pid: Int32) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !threads(of: pid).contains(where: { $0.waitingIn.contains("pipe") }) {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The shared libraries mapped into `pid`, from /proc/PID/maps.
    static func mappedLibraries(of pid: Int32) -> Set<String> {
        // Read to the end: procfs reports a size of 0, and a read by that size stops after the first page.
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/maps").map { (try? $0.readToEnd()) ?? nil } ?? nil
        let maps = String(decoding: data ?? Data(), as: UTF8.self)
        return Set(
            maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
                .filter { $0.contains(".so") })
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
