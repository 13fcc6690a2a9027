import Foundation
import IdFlowCore
import IdFlowFoundation

/// Runs another program (bash, sh, groff, a script of the project) to its end, as the end-to-end tests do when
/// a README recipe, a completion script or a generated file is checked the way a user meets it.
public enum ExternalCommand {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: Data
        /// stderr, or stdout and stderr together when they were asked to share one pipe.
        public var standardError: String

        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// Runs `executable` and blocks the calling thread until it ends, which must not be a cooperative one
    /// (`DedicatedThread`): tests call the async `run`. Both streams are read side by side on threads of their own, so
    /// a program that fills one pipe while nobody reads it cannot stall. `mergeOutput` sends stderr into stdout.
    static func waitFor(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        mergeOutput: Bool = false
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = mergeOutput ? output : Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = Locked(Data())
        let stderr = Locked(Data())
        let reading = DispatchGroup()
        for (pipe, sink) in mergeOutput ? [(output, stdout)] : [(output, stdout), (errors, stderr)] {
            reading.enter()
            Thread.detachNewThread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                sink.withLock { $0 = data }
                reading.leave()
            }
        }
        reading.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: stdout.current,
            standardError: String(decoding: mergeOutput ? stdout.current : stderr.current, as: UTF8.self))
    }

    /// As `run`, from async code: the waiting happens on a thread of its own, never on one of the few threads of
    /// Swift's cooperative pool that the code under test in parallel tests needs.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        mergeOutput: Bool = false
    ) async throws -> Result {
        try await DedicatedThread.run {
            try waitFor(executable, arguments, environment: environment, directory: directory, mergeOutput: mergeOutput)
        }
    }
}
