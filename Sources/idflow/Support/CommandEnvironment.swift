import Foundation
import IdFlowCore
import IdFlowFoundation

/// What a command needs from the process: its streams, its environment variables, and a way to turn the
/// parsed configuration flags into a context. The live one talks to the network; tests build one over a
/// scripted transport and captured streams.
struct CommandEnvironment: Sendable {
    var console: Console
    /// Read when a command asks, not when the environment is made: parsing, help and the version need none.
    private var readVariables: @Sendable () -> [String: String]
    var makeContext: @Sendable (ConfigurationFlags) throws(IdFlowError) -> IdFlowContext
    /// Runs `body` with a batch interruption switch: the live one is flipped by SIGINT (Ctrl-C) or SIGTERM while
    /// `body` runs; a test's is a plain one it may flip itself.
    var withInterruption: @Sendable (_ body: (BatchInterruption) async throws -> Void) async throws -> Void = { body in
        try await body(BatchInterruption())
    }

    var variables: [String: String] { readVariables() }

    init(
        console: Console, variables: @autoclosure @escaping @Sendable () -> [String: String],
        makeContext: @escaping @Sendable (ConfigurationFlags) throws(IdFlowError) -> IdFlowContext
    ) {
        self.console = console
        self.readVariables = variables
        self.makeContext = makeContext
    }

    static var live: CommandEnvironment {
        var live = CommandEnvironment(console: .live, variables: ProcessInfo.processInfo.environment) { flags throws(IdFlowError) in
            try IdFlowContext.resolve(flags: flags, environment: ProcessInfo.processInfo.environment, console: .live)
        }
        live.withInterruption = { body in try await InterruptSignal.whileRunning(body) }
        return live
    }
}
