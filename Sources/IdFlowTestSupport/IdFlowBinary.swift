import Foundation
import IdFlowCore
import IdFlowFoundation

/// Runs the built `idflow` executable as a user would, capturing stdout, stderr and the exit code.
public enum IdFlowBinary {
    /// `IDFLOW_BIN`, else the `idflow` built beside the test bundle (`swift build` puts both in one folder).
    public static var url: URL {
        if let override = ProcessInfo.processInfo.environment["IDFLOW_BIN"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("idflow")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/idflow")
    }

    public struct Result: Sendable, CustomStringConvertible {
        public var exitCode: Int32
        public var stdout: String
        public var stderr: String

        /// stdout as the one JSON document the contract promises.
        public func json() throws -> JSONValue { try JSONValue(data: Data(stdout.utf8)) }

        /// The error line of the contract: the last line of stderr, whatever came before it (so every test that
        /// reads it checks that rule too).
        public var error: JSONValue? {
            stderr.split(separator: "\n").last.flatMap { try? JSONValue(data: Data($0.utf8)) }?["error"]
        }

        public var description: String { "exit \(exitCode)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

        public init(exitCode: Int32, stdout: String, stderr: String) {
            self.exitCode = exitCode
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `idflow arguments…` with exactly `environment` (plus PATH), feeding `stdin`.
    public static func run(_ arguments: [String], stdin: String = "", environment: [String: String], timeout: Duration = .seconds(120))
        async throws -> Result
    {
        try await InteractiveSession.start(arguments, environment: environment).finish(stdin: stdin, timeout: timeout)
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public var arguments: [String]
        public var description: String { "idflow \(arguments.joined(separator: " ")) did not finish in time" }
    }
}
