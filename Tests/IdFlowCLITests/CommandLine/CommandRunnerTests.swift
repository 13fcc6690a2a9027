import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

/// The two ways a command may end other than "print the result, exit 0" or "print the error line": a report
/// (a document on stdout with the exit code it decides), and a run that is handed its configuration problems
/// instead of being stopped by them (the seams a diagnostic command is built on).
@Suite struct CommandRunnerTests {
    struct Check: Encodable, Sendable {
        var name: String
        var ok: Bool
    }

    /// Runs `body` as a command body would, with captured streams; returns the exit code and both streams.
    static func run(
        _ arguments: [String] = [], environment: [String: String] = CLI.isolatedEnvironment(),
        _ body: @escaping (GlobalOptions) async throws -> Void
    ) async -> (code: Int32, stdout: String, stderr: String) {
        let stdout = Locked(Data())
        let stderr = Locked(Data())
        let console = Console(
            standardOutput: { data in stdout.withLock { $0.append(data) } },
            standardError: { data in stderr.withLock { $0.append(data) } },
            readStandardInput: { Data() }, readLine: { nil }, isInteractive: false)
        let commandEnvironment = CommandEnvironment(console: console, variables: environment) { flags throws(IdFlowError) in
            try IdFlowContext.resolve(flags: flags, environment: environment, console: console, transport: ScriptedTransport([]))
        }
        let code = await CommandRunner.$environment.withValue(commandEnvironment) { () async -> Int32 in
            do {
                try await body(try GlobalOptions.parse(arguments + ["--compact"]))
                return 0
            } catch let exit as ExitCode {
                return exit.rawValue
            } catch {
                return -1
            }
        }
        return (code, String(decoding: stdout.current, as: UTF8.self), String(decoding: stderr.current, as: UTF8.self))
    }

    @Test func aFailingReportPrintsItsDocumentAndExitsWithItsCodeWithoutAnErrorLine() async throws {
        let result = await Self.run { options in
            try await CommandRunner.run(options) { _ in
                CommandReport([Check(name: "discovery", ok: false)], exitStatus: .network)
            }
        }
        #expect(result.code == IdFlowExitCode.network.rawValue)
        #expect(result.stdout == #"[{"name":"discovery","ok":false}]"# + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func aPassingReportExitsZero() async throws {
        let result = await Self.run { options in
            try await CommandRunner.run(options) { _ in CommandReport(Check(name: "clock", ok: true), exitStatus: .success) }
        }
        #expect(result.code == 0)
        #expect(result.stdout == #"{"name":"clock","ok":true}"# + "\n")
    }

    @Test func anUnknownProfileStopsAPlainCommandBeforeItsBodyRuns() async throws {
        let ran = Locked(false)
        let result = await Self.run(["--profile", "nosuchprofile"]) { options in
            try await CommandRunner.run(options) { _ in
                ran.withLock { $0 = true }
                return Check(name: "never", ok: true)
            }
        }
        #expect(result.code == IdFlowExitCode.usage.rawValue)
        #expect(!ran.current)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nosuchprofile"))
    }

    @Test func aCommandThatResolvesItselfIsHandedTheConfigurationProblemAndReportsIt() async throws {
        let result = await Self.run(["--org-url", "not a url"]) { options in
            try await CommandRunner.runResolving(options) { resolved in
                switch resolved {
                case .success: return CommandReport(Check(name: "configuration", ok: true), exitStatus: .success)
                case .failure(let problem):
                    return CommandReport(Check(name: problem.message, ok: false), exitStatus: problem.exitStatus)
                }
            }
        }
        #expect(result.code == IdFlowExitCode.usage.rawValue)
        let report = try #require(try? JSONValue(data: Data(result.stdout.utf8)))
        #expect(report["ok"] == .bool(false))
        #expect(report["name"]?.stringValue?.contains("not a url") == true)
        #expect(result.stderr.isEmpty)
    }

    @Test func aCommandThatResolvesItselfGetsTheContextWhenTheConfigurationIsGood() async throws {
        let result = await Self.run(["--org-url", "https://o.example.com"]) { options in
            try await CommandRunner.runResolving(options) { resolved throws(IdFlowError) in
                Check(name: try resolved.get().configuration.requireOrgURL().absoluteString, ok: true)
            }
        }
        #expect(result.code == 0)
        #expect(result.stdout == #"{"name":"https://o.example.com","ok":true}"# + "\n")
    }
}
