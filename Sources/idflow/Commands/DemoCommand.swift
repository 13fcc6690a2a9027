import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowSandbox

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole chain on an embedded sandbox: register → activate → set-password → login-pkce → refresh.",
        discussion: """
            Starts an in-process sandbox on a random loopback port and a temporary state directory, runs each step \
            with the same code as its command, prints one JSON document per step on stdout (one per line) and a \
            headline per step on stderr. Exits 0 only if every step did what it should; otherwise with the failed \
            step's exit code. Leaves nothing behind.

              $ swift run idflow demo
              $ idflow demo | jq -r 'select(.step=="login-pkce").result.access_token'
            """)

    @Flag(help: "Trace HTTP on stderr, every secret redacted.")
    var verbose = false

    func run() async throws {
        let server: SandboxServer
        do {
            server = try await SandboxServer.start(SandboxConfiguration())
        } catch {
            CommandRunner.fail(.network(url: "127.0.0.1", reason: "cannot start the embedded sandbox: \(error)"))
        }
        let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let info = server.info
        let configuration = Configuration(
            orgURL: URL(string: info.orgUrl), apiToken: Secret(info.apiToken), issuer: URL(string: info.issuer), clientID: info.clientId,
            redirectURI: info.redirectUri, stateDirectory: stateDirectory, verbose: verbose, maxRetries: 1)
        var context = IdFlowContext.live(configuration: configuration)
        context.message = { _ in }  // the demo prints its own headline per step
        FileHandle.standardError.write(Data("idflow demo: sandbox at \(info.orgUrl)\n".utf8))
        let failure = Locked<Int32?>(nil)
        let passed = await Demo().run(context) { step in
            if let data = try? JSONOutput.encode(step, style: .compact) { FileHandle.standardOutput.write(data) }
            FileHandle.standardError.write(Data("\(step.ok ? "✔" : "✘") \(step.step): \(step.headline)\n".utf8))
            if let code = step.error?.exitCode { failure.withLock { $0 = code } }
        }
        await server.stop()
        if !passed {
            try? FileManager.default.removeItem(at: stateDirectory)
            throw ExitCode(failure.current ?? 1)
        }
    }
}

