import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport

@testable import idflow

/// What one in-process run of `idflow` left behind: what a script would see of it.
struct CLIResult {
    var exitCode: Int32
    var stdout: String
    var stderr: String

    /// stdout as JSON (nil when stdout is not one JSON document).
    var json: JSONValue? { try? JSONValue(data: Data(stdout.utf8)) }

    /// The contract's error line: the last line of stderr, whatever came before it. Every test that reads it
    /// checks that rule too.
    var error: JSONValue? {
        stderr.split(separator: "\n").last.flatMap { try? JSONValue(data: Data($0.utf8)) }?["error"]
    }
}

/// Runs `idflow` commands in this process, as `main` would, over a scripted transport and captured streams:
/// no binary is spawned and nothing reaches the network.
enum CLI {
    /// A throwaway HOME and state directory, so no run reads the developer's own profiles or tokens.
    static func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-cli-\(UUID().uuidString)", isDirectory: true)
        return [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "IDFLOW_STATE_DIR": home.appendingPathComponent("state").path,
        ].merging(extra) { $1 }
    }

    static func run(
        _ arguments: [String], transport: any HTTPTransport = ScriptedTransport([]), stdin: String = "",
        environment: [String: String] = isolatedEnvironment(), terminalAnswers: [String]? = nil
    ) async -> CLIResult {
        // With `terminalAnswers` the run is "at a terminal": prompts are answered from the list, in order.
        let answers = Locked(terminalAnswers ?? [])
        let stdout = Locked(Data())
        let stderr = Locked(Data())
        let input = Locked(Data(stdin.utf8))
        // Hidden or echoed, a prompt shows on stderr and takes the next terminal answer.
        let prompt: @Sendable (String) -> String? = { prompt in
            stderr.withLock { $0.append(Data(prompt.utf8)) }
            return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
        let console = Console(
            standardOutput: { data in stdout.withLock { $0.append(data) } },
            standardError: { data in stderr.withLock { $0.append(data) } },
            readStandardInput: {
                input.withLock { data in
                    defer { data = Data() }
                    return data
                }
            },
            readLine: {
                input.withLock { data -> String? in
                    guard !data.isEmpty else { return nil }
                    let line = data.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
                    data = line.count > 1 ? Data(line[1]) : Data()
                    return String(decoding: line[0], as: UTF8.self)
                }
            }, isInteractive: terminalAnswers != nil,
            promptSecret: prompt, promptLine: prompt)
        let commandEnvironment = CommandEnvironment(console: console, variables: environment) { flags throws(IdFlowError) in
            try IdFlowContext.resolve(flags: flags, environment: environment, console: console, transport: transport, sleep: { _ in })
        }
        let code = await CommandRunner.$environment.withValue(commandEnvironment) { () async -> Int32 in
            await IdFlow.execute(arguments)
        }
        return CLIResult(
            exitCode: code, stdout: String(decoding: stdout.current, as: UTF8.self), stderr: String(decoding: stderr.current, as: UTF8.self)
        )
    }

    /// Parses without running, for tests of the flag grammar alone.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try IdFlow.parseAsRoot(GlobalArguments.hoist(arguments, root: IdFlow.self))
    }

    /// Every command in the tree with its path (`["token", "inspect"]`), the root first.
    static var allCommands: [(path: [String], type: any ParsableCommand.Type)] {
        func walk(_ type: any ParsableCommand.Type, _ path: [String]) -> [(path: [String], type: any ParsableCommand.Type)] {
            [(path, type)]
                + type.configuration.subcommands.flatMap { sub in
                    walk(sub, path + [sub.configuration.commandName ?? sub._commandName])
                }
        }
        return walk(IdFlow.self, [])
    }
}
