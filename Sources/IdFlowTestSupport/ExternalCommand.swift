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
    /// (`DedicatedThread`): tests call the async `run`. Both streams are read side by side on threads of their own, and
    /// `stdin` is written on another, so a program that fills one pipe while nobody reads it cannot stall.
    /// `mergeOutput` sends stderr into stdout. Without `stdin`, the program reads /dev/null.
    static func waitFor(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: Data? = nil, mergeOutput: Bool = false
    ) throws -> Result {
        let process = try ChildProcess.spawn(
            executable, arguments, environment: environment, directory: directory?.path,
            standardInput: stdin == nil ? .nullDevice : .pipe, standardOutput: .pipe,
            standardError: mergeOutput ? .sameAsStandardOutput : .pipe)
        let stdout = Locked(Data())
        let stderr = Locked(Data())
        let reading = DispatchGroup()
        for (handle, sink) in [(process.standardOutput, stdout), (process.standardError, stderr)] {
            guard let handle else { continue }
            reading.enter()
            Thread.detachNewThread {
                let data = handle.readDataToEndOfFile()
                sink.withLock { $0 = data }
                reading.leave()
            }
        }
        if let stdin, let input = process.standardInput {
            reading.enter()
            Thread.detachNewThread {
                // A program that exits without reading it all makes this write fail, which is its business.
                try? ChildProcess.write(stdin, to: input)
                try? input.close()
                reading.leave()
            }
        }
        reading.wait()
        let status = process.terminationStatus
        return Result(
            status: status, standardOutput: stdout.current,
            standardError: String(decoding: mergeOutput ? stdout.current : stderr.current, as: UTF8.self))
    }

    /// As `run`, from async code: the waiting happens on a thread of its own, never on one of the few threads of
    /// Swift's cooperative pool that the code under test in parallel tests needs.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: Data? = nil, mergeOutput: Bool = false
    ) async throws -> Result {
        try await DedicatedThread.run {
            try waitFor(executable, arguments, environment: environment, directory: directory, stdin: stdin, mergeOutput: mergeOutput)
        }
    }
}
