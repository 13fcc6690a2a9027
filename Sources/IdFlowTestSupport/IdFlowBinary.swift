import Foundation
import IdFlowCore

/// Runs the built `idflow` executable as a user would, capturing stdout, stderr and the exit code.
public enum IdFlowBinary {
    /// `IDFLOW_BIN`, else the `idflow` built beside the test bundle (`swift build` puts both in one folder).
    public static var url: URL {
        if let override = ProcessInfo.processInfo.environment["IDFLOW_BIN"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("idflow")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/idflow")
    }

    public struct Result: Sendable, CustomStringConvertible {
        public var exitCode: Int32
        public var stdout: String
        public var stderr: String

        /// stdout as the one JSON document the contract promises.
        public func json() throws -> JSONValue { try JSONValue(data: Data(stdout.utf8)) }

        /// The error line of the contract: the last stderr line that parses as `{"error": …}`.
        public var error: JSONValue? {
            stderr.split(separator: "\n").reversed().lazy.compactMap { try? JSONValue(data: Data($0.utf8)) }.first { $0["error"] != nil }?["error"]
        }

        public var description: String { "exit \(exitCode)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
    }

    /// Runs `idflow arguments…` with exactly `environment` (plus PATH), feeding `stdin`.
    public static func run(_ arguments: [String], stdin: String = "", environment: [String: String], timeout: Duration = .seconds(120)) async throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var env = environment
        env["PATH"] = env["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = env
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = Locked(Data())
        let errData = Locked(Data())
        // Read both pipes while the process runs, so a chatty child never blocks on a full pipe.
        let readers = [
            Thread { outData.withLock { $0 = output.fileHandleForReading.readDataToEndOfFile() } },
            Thread { errData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } },
        ]
        for reader in readers { reader.start() }
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                throw TimedOut(arguments: arguments)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // The pipes close when the child exits; wait for the readers to drain them.
        while !readers.allSatisfy(\.isFinished) { try await Task.sleep(for: .milliseconds(5)) }
        return Result(
            exitCode: process.terminationStatus, stdout: String(decoding: outData.current, as: UTF8.self),
            stderr: String(decoding: errData.current, as: UTF8.self))
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public var arguments: [String]
        public var description: String { "idflow \(arguments.joined(separator: " ")) did not finish in time" }
    }
}
