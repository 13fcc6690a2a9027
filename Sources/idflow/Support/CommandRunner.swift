import ArgumentParser
import Foundation
import IdFlowCore

/// Runs one command body the same way for every subcommand: build the context, call one flow, print
/// its result on stdout, or print the error line on stderr and exit with the documented code.
enum CommandRunner {
    static func run<Result: Encodable>(
        _ options: GlobalOptions, _ body: (IdFlowContext) async throws(IdFlowError) -> Result
    ) async throws {
        do {
            let context = try IdFlowContext.live(flags: options.flags)
            let result = try await body(context)
            let data = try JSONOutput.encode(result, style: options.outputStyle)
            FileHandle.standardOutput.write(data)
        } catch {
            fail(error)
        }
    }

    /// Prints the error line and ends the process with the error's exit code.
    static func fail(_ error: IdFlowError) -> Never {
        FileHandle.standardError.write(JSONOutput.errorLine(error))
        exit(error.exitStatus.rawValue)
    }
}
