import Foundation
import IdFlowCore

/// What a command needs from the process: its streams, its environment variables, and a way to turn the
/// parsed configuration flags into a context. The live one talks to the network; tests build one over a
/// scripted transport and captured streams.
struct CommandEnvironment: Sendable {
    var console: Console
    var variables: [String: String]
    var makeContext: @Sendable (ConfigurationFlags) throws(IdFlowError) -> IdFlowContext
    /// Runs `body` with a batch interruption switch: the live one is flipped by SIGINT (Ctrl-C) while `body`
    /// runs; a test's is a plain one it may flip itself.
    var withInterruption: @Sendable (_ body: (BatchInterruption) async throws -> Void) async throws -> Void = { body in
        try await body(BatchInterruption())
    }

    static var live: CommandEnvironment {
        let variables = ProcessInfo.processInfo.environment
        var live = CommandEnvironment(console: .live, variables: variables) { flags throws(IdFlowError) in
            try IdFlowContext.resolve(flags: flags, environment: variables, console: .live)
        }
        live.withInterruption = { body in try await InterruptSignal.whileRunning(body) }
        return live
    }
}
