import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowSandbox

struct Sandbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a local, in-memory, Okta-compatible identity server (like `vault server -dev`).",
        discussion: """
            Prints one JSON line {"orgUrl","issuer","apiToken","clientId","redirectUri"} as soon as it listens, \
            then serves until SIGINT or SIGTERM. Everything lives in memory and is gone when it stops.

              $ idflow sandbox > sandbox.json &
              $ export OKTA_CLIENT_ORGURL=$(jq -r .orgUrl sandbox.json) OKTA_CLIENT_TOKEN=$(jq -r .apiToken sandbox.json)

            Admin endpoints (Authorization: SSWS <apiToken>): GET /sandbox/outbox (mailed activation links), \
            POST/GET/DELETE /sandbox/faults (inject failures), GET/POST /sandbox/clock (move time forward), \
            GET/POST /sandbox/rate-limits (per endpoint-family limits). See the README.
            """)

    @Option(help: ArgumentHelp("The address to listen on; only loopback is sensible for a server without TLS.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port; 0 picks a free one (printed in orgUrl).", valueName: "port"))
    var port = 0

    @Option(name: .customLong("api-token"), help: ArgumentHelp("Use this management API token instead of a random one (it is printed anyway).", valueName: "token"))
    var apiToken: String?

    @Option(help: ArgumentHelp("A JSON configuration file (rate limits, clients, token lifetimes); see the README.", valueName: "file"))
    var config: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        var configuration: SandboxConfiguration
        do {
            configuration = try config.map { try SandboxConfiguration.load(from: URL(fileURLWithPath: $0)) } ?? SandboxConfiguration()
        } catch {
            CommandRunner.fail(.invalidInput("cannot use the sandbox configuration \(config ?? ""): \(error)"))
        }
        configuration.host = host
        configuration.port = port
        if let apiToken { configuration.apiToken = apiToken }
        // Signals are watched before the server starts, so a Ctrl-C during start-up still stops it cleanly.
        let running = Locked<(server: SandboxServer?, stopRequested: Bool)>((nil, false))
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) {
            let server = running.withLock { state -> SandboxServer? in
                state.stopRequested = true
                return state.server
            }
            if let server { Task { await server.stop() } }
        }
        defer { signals.cancel() }
        let server: SandboxServer
        do {
            server = try await SandboxServer.start(configuration)
        } catch {
            CommandRunner.fail(.network(url: "\(host):\(port)", reason: "cannot listen: \(error)"))
        }
        if running.withLock({ state in
            state.server = server
            return state.stopRequested
        }) {
            await server.stop()
            return
        }
        do throws(IdFlowError) {
            FileHandle.standardOutput.write(try JSONOutput.encode(server.info, style: .compact))
        } catch {
            CommandRunner.fail(error)
        }
        try await server.waitUntilStopped()
    }
}
