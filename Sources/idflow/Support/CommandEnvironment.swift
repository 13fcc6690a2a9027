import Foundation
import IdFlowCore

/// What a command needs from the process: its streams, its environment variables, and a way to turn the
/// parsed configuration flags into a context. The live one talks to the network; tests build one over a
/// scripted transport and captured streams.
struct CommandEnvironment: Sendable {
    var console: Console
    var variables: [String: String]
    var makeContext: @Sendable (ConfigurationFlags) throws(IdFlowError) -> IdFlowContext

    static var live: CommandEnvironment {
        let variables = ProcessInfo.processInfo.environment
        return CommandEnvironment(console: .live, variables: variables) { flags throws(IdFlowError) in
            try IdFlowContext.resolve(flags: flags, environment: variables, console: .live)
        }
    }
}
