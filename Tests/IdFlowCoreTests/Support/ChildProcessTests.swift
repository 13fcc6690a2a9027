import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The spawner behind the browser idflow opens and every program the tests run: what the child gets (its streams,
/// directory, environment, and no other descriptor of ours) and what the parent learns (how it ended).
@Suite struct ChildProcessTests {
    /// Runs `script` with bash, reading stdout and stderr side by side; waits off the cooperative pool.
    func run(
        _ script: String, environment: [String: String]? = nil, directory: String? = nil, stdin: String? = nil
    ) async throws -> (ChildProcess.Termination, stdout: Data, stderr: Data) {
        let child = try ChildProcess.spawn(
            "/bin/bash", ["-c", script], environment: environment, directory: directory,
            standardInput: stdin == nil ? .nullDevice : .pipe, standardOutput: .pipe, standardError: .pipe)
        if let stdin, let input = child.standardInput {
            try input.write(contentsOf: Data(stdin.utf8))
            try input.close()
        }
        let output = try #require(child.standardOutput)
        let errors = try #require(child.standardError)
        async let stdout = DedicatedThread.run { output.readDataToEndOfFile() }
        async let stderr = DedicatedThread.run { errors.readDataToEndOfFile() }
        let termination = try await DedicatedThread.run { child.waitUntilExit() }
        return (termination, try await stdout, try await stderr)
    }

    @Test func theExitCodeIsReported() async throws {
        let (termination, _, _) = try await run("exit 7")
        #expect(termination == .init(reason: .exit, status: 7))
    }

    @Test func aChildEndedByASignalSaysWhichAndCannotBeSignalledAfterItIsReaped() async throws {
        let child = try ChildProcess.spawn("/bin/sleep", ["60"], standardInput: .nullDevice)
        #expect(child.isRunning)
        #expect(child.send(SIGINT))
        let termination = try await DedicatedThread.run { child.waitUntilExit() }
        #expect(termination == .init(reason: .uncaughtSignal, status: SIGINT))
        #expect(!child.isRunning)
        #expect(!child.send(SIGTERM), "its process id may belong to another program by now")
    }

    @Test func aMegabyteOnEachStreamIsCapturedSeparately() async throws {
        // Each is far more than a pipe holds, written one after the other: a parent reading one stream to its end
        // before the other would stall with the child.
        let (termination, stdout, stderr) = try await run(
            "head -c 1048576 /dev/zero | tr '\\0' o; head -c 1048576 /dev/zero | tr '\\0' e >&2")
        #expect(termination.reason == .exit && termination.status == 0)
        #expect(stdout == Data(repeating: UInt8(ascii: "o"), count: 1_048_576))
        #expect(stderr == Data(repeating: UInt8(ascii: "e"), count: 1_048_576))
    }

    @Test func stdinIsWhatTheParentWrites() async throws {
        let (_, stdout, _) = try await run("tr a-z A-Z", stdin: "typed\n")
        #expect(String(decoding: stdout, as: UTF8.self) == "TYPED\n")
    }

    @Test func theDirectoryAndExactlyTheEnvironmentGivenAreTheChilds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, stdout, _) = try await run(
            #"printf '%s|%s|%s' "$(/bin/pwd -P)" "$GREETING" "${HOME-unset}""#, environment: ["GREETING": "hello there"],
            directory: directory.path)
        let resolved = directory.resolvingSymlinksInPath().path
        #expect(String(decoding: stdout, as: UTF8.self) == "\(resolved)|hello there|unset")
    }

    @Test func aDirectoryThatDoesNotExistOrAProgramThatDoesNotIsAnErrorNamingIt() throws {
        let missing = #expect(throws: ChildProcess.SpawnFailure.self) { try ChildProcess.spawn("/nonexistent/idflow-browser", []) }
        #expect(missing?.description.contains("/nonexistent/idflow-browser") == true)
        #expect(missing?.description.contains("No such file") == true)
        let nowhere = #expect(throws: ChildProcess.SpawnFailure.self) {
            try ChildProcess.spawn("/bin/true", [], directory: "/nonexistent/directory")
        }
        #expect(nowhere?.description.contains("No such file") == true)
    }

    @Test func aProgramThatLeavesItsInputUnreadDoesNotEndTheTestProcess() async throws {
        // A megabyte cannot fit in the pipe: the write fails once `true` has exited, and SIGPIPE must not end us.
        let result = try await ExternalCommand.run("/bin/true", [], stdin: Data(count: 1_048_576))
        #expect(result.status == 0)
    }

    #if os(Linux)
        @Test func theChildInheritsNoDescriptorBesidesItsThreeStreams() async throws {
            // Opened without O_CLOEXEC, as code that knows nothing of children (or another thread) may do.
            let unrelated = open("/dev/null", O_RDONLY)
            try #require(unrelated >= 0)
            defer { close(unrelated) }
            let (termination, stdout, _) = try await run("exec ls /proc/self/fd")
            #expect(termination.status == 0)
            // 0, 1 and 2, and the descriptor `ls` opened to list the directory: none of the test process's.
            let listed = String(decoding: stdout, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
            #expect(listed == [0, 1, 2, 3], "the child had: \(listed); the test's file was \(unrelated)")
        }
    #endif
}
