import ArgumentParser
import Foundation
import IdFlowCore

/// Runs one command body the same way for every subcommand: build the context, call one flow, print its
/// result on stdout; or print the error line on stderr and end with the documented exit code.
///
/// A failed run throws `ExitCode` (ArgumentParser's way) instead of calling `exit()`, so a test that runs
/// the command in-process sees the code and keeps running.
enum CommandRunner {
    /// Where commands get their context and streams; tests replace it for the duration of one run.
    @TaskLocal static var environment = CommandEnvironment.live

    static func run<Result: Encodable>(
        _ options: GlobalOptions, _ body: (IdFlowContext) async throws(IdFlowError) -> Result
    ) async throws {
        let environment = environment
        try await report(to: environment.console) { () throws(IdFlowError) in
            let context = try environment.makeContext(options.flags)
            let result: Result
            do throws(IdFlowError) {
                result = try await body(context)
            } catch {
                // A failure that still owes the script a document (a custom registration's retry, exit 10).
                if let document = error.standardOutputDocument {
                    environment.console.standardOutput(try JSONOutput.encode(document, style: options.outputStyle))
                }
                throw error
            }
            environment.console.standardOutput(try JSONOutput.encode(result, style: options.outputStyle))
        }
    }

    /// Runs `body`; a failure becomes the contract's error line on stderr and a thrown `ExitCode`.
    static func report(to console: Console, _ body: () async throws(IdFlowError) -> Void) async throws {
        do {
            try await body()
        } catch {
            console.standardError(JSONOutput.errorLine(error))
            throw ExitCode(error.exitStatus.rawValue)
        }
    }
}
