import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

/// Runs one command body the same way for every subcommand: build the context, call one flow, print its
/// result on stdout; or print the error line on stderr and end with the documented exit code.
///
/// A failed run throws `ExitCode` (ArgumentParser's way) instead of calling `exit()`, so a test that runs
/// the command in-process sees the code and keeps running.
enum CommandRunner {
    /// Where commands get their context and streams; tests replace it for the duration of one run.
    @TaskLocal static var environment = CommandEnvironment.live

    /// Runs `body` with the context of the configuration flags; a configuration that cannot be resolved
    /// (an unknown profile, a bad URL) is reported before `body` runs. The result is printed on stdout; a
    /// `CommandReport` also sets the exit code.
    static func run<Result: Encodable>(
        _ options: GlobalOptions, _ body: (IdFlowContext) async throws(IdFlowError) -> Result
    ) async throws {
        try await runResolving(options) { resolved throws(IdFlowError) in try await body(resolved.get()) }
    }

    /// As `run`, for a command that reports configuration problems itself (a diagnostic): `body` gets the
    /// resolution, a context or the error that kept one from being made, and runs either way.
    static func runResolving<Result: Encodable>(
        _ options: GlobalOptions, _ body: (Swift.Result<IdFlowContext, IdFlowError>) async throws(IdFlowError) -> Result
    ) async throws {
        let environment = environment
        var exitStatus = IdFlowExitCode.success
        try await report(to: environment.console) { () throws(IdFlowError) in
            let resolved: Swift.Result<IdFlowContext, IdFlowError>
            do throws(IdFlowError) {
                resolved = .success(try environment.makeContext(options.flags))
            } catch {
                resolved = .failure(error)
            }
            let result: Result
            do throws(IdFlowError) {
                result = try await body(resolved)
            } catch {
                // A failure that still owes the script a document (a custom registration's retry, exit 10).
                if let document = error.standardOutputDocument {
                    environment.console.standardOutput(try JSONOutput.encode(document, style: options.outputStyle))
                }
                throw error
            }
            if let bytes = (result as? any RawStandardOutput)?.standardOutputBytes {
                // An empty body (204) prints nothing: there is no document to print.
                if !bytes.isEmpty { environment.console.standardOutput(bytes) }
            } else {
                environment.console.standardOutput(try JSONOutput.encode(result, style: options.outputStyle))
            }
            exitStatus = (result as? any ExitStatusReporting)?.exitStatus ?? .success
        }
        if exitStatus != .success { throw ExitCode(exitStatus.rawValue) }
    }

    /// The streaming variant, for NDJSON output (`register --batch`): `body` gets the context and `emit`, which
    /// writes one compact JSON line on stdout per call, at once, so a consumer sees each result as it is ready.
    /// The body returns how the run failed, nil when it did not: the lines already carry their own errors, and the
    /// failure ends stderr with the error line that sums them up, as every failed run does. An error thrown by the
    /// body (before any line, such as an unreadable input) is reported as `run` reports it.
    static func stream<Line: Encodable & Sendable>(
        _ options: GlobalOptions,
        _ body: (IdFlowContext, _ emit: @escaping @Sendable (Line) -> Void) async throws(IdFlowError) -> IdFlowError?
    ) async throws {
        let environment = environment
        let console = environment.console
        try await report(to: console) { () throws(IdFlowError) in
            let context = try environment.makeContext(options.flags)
            let failure = try await body(context) { line in
                console.standardOutput((try? JSONOutput.encode(line, style: .compact)) ?? Data())
            }
            if let failure { throw failure }
        }
    }

    /// Runs `body`; a failure becomes the contract's error line on stderr and a thrown `ExitCode`.
    static func report(to console: Console, _ body: () async throws(IdFlowError) -> Void) async throws {
        do {
            try await body()
        } catch {
            console.fail(error)
            throw ExitCode(error.exitStatus.rawValue)
        }
    }
}
