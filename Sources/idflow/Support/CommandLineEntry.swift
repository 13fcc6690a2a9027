import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

extension IdFlow {
    /// What reading a command line came to: a command to run, with the arguments as parsed (the configuration
    /// flags moved behind the subcommand), or an exit code because parsing answered it (help, the version, a
    /// completion) or refused it (a usage error), its output already written.
    enum Invocation {
        case run(any ParsableCommand, arguments: [String])
        case finished(Int32)
    }

    /// Parses and runs one command line, as `main` does, and returns the exit code instead of exiting, so the
    /// in-process tests go through the same path as the binary.
    static func execute(_ arguments: [String]) async -> Int32 {
        switch invocation(arguments) {
        case .finished(let code): return code
        case .run(let command, let arguments): return await run(command, arguments: arguments)
        }
    }

    /// Parses one command line, synchronously: help, the version and usage errors are answered here without
    /// starting the concurrency runtime (its threads cost a few milliseconds of start-up).
    ///
    /// Beyond ArgumentParser's own handling: a mistyped command or option is reported before anything else
    /// (`UsageCheck`), with the closest name; and every usage error ends, like every other failure, with the
    /// contract's JSON error line as the last line of stderr, so a script reads one shape whatever went wrong.
    static func invocation(_ arguments: [String]) -> Invocation {
        let console = CommandRunner.environment.console
        let arguments = GlobalArguments.hoist(CompletionScript.routed(arguments), root: IdFlow.self)
        if let mistake = UsageCheck.helpTopicMistake(in: arguments, root: IdFlow.self) {
            return .finished(reportUsage(mistake, console: console))
        }
        do {
            return .run(try parseAsRoot(arguments), arguments: arguments)
        } catch {
            return .finished(finish(error, arguments: arguments, console: console))
        }
    }

    /// Runs a parsed command and returns its exit code.
    static func run(_ command: any ParsableCommand, arguments: [String]) async -> Int32 {
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
            return 0
        } catch {
            return finish(error, arguments: arguments, console: CommandRunner.environment.console)
        }
    }

    /// The exit code for what parsing or a run threw, with ArgumentParser's text (help, the version) on stdout
    /// or the failure on stderr, ending in the contract's JSON error line.
    private static func finish(_ error: any Error, arguments: [String], console: Console) -> Int32 {
        if let code = error as? ExitCode {
            // CommandRunner has already reported the failure (or a report set the code).
            return code.rawValue
        }
        let code = exitCode(for: error)
        if code.isSuccess {
            // Help, the version, a completion: ArgumentParser's text on stdout.
            let text = fullMessage(for: error)
            if !text.isEmpty { console.standardOutput(Data((text + "\n").utf8)) }
            return code.rawValue
        }
        if code.rawValue == IdFlowExitCode.usage.rawValue, let mistake = UsageCheck.firstMistake(in: arguments, root: IdFlow.self) {
            return reportUsage(mistake, console: console)
        }
        console.standardError(Data((fullMessage(for: error) + "\n").utf8))
        let failure: IdFlowError =
            code.rawValue == IdFlowExitCode.usage.rawValue ? .invalidInput(message(for: error)) : .internalFailure(message(for: error))
        console.standardError(JSONOutput.errorLine(failure))
        return code.rawValue
    }

    /// ArgumentParser's message for a mistake the check found, with the usage of the command it was made in,
    /// then the JSON error line.
    private static func reportUsage(_ mistake: UsageCheck.Mistake, console: Console) -> Int32 {
        var text = "Error: \(mistake.message)\n"
        if let hint = mistake.hint { text += "Help:  \(hint)\n" }
        // A hint that already names --help is not followed by a second pointer to it.
        if mistake.hint?.contains("--help") != true {
            text += "  See '\((["idflow"] + mistake.commandPath).joined(separator: " ")) --help' for more information.\n"
        }
        console.standardError(Data(text.utf8))
        console.standardError(JSONOutput.errorLine(.invalidInput(mistake.message, hint: mistake.hint)))
        return IdFlowExitCode.usage.rawValue
    }
}
