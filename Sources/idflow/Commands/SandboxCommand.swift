import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox

struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a local, in-memory, Okta-compatible server.",
        usage: "idflow sandbox [<options>]",
        discussion: """
            Prints one JSON line (orgUrl, issuer, apiToken, clientId, ...) once it listens, then serves until \
            SIGINT or SIGTERM; everything lives in memory. docs/sandbox.md describes the JSON, the configuration \
            file and the admin endpoints (outbox, faults, clock, rate limits).

              $ idflow sandbox > sandbox.json &
              $ export OKTA_CLIENT_ORGURL=$(jq -r .orgUrl sandbox.json) \\
                  OKTA_CLIENT_TOKEN=$(jq -r .apiToken sandbox.json)
              $ idflow sandbox --env > sandbox.env &
              $ until [ -s sandbox.env ]; do sleep 0.1; done; . ./sandbox.env
            """)

    @Option(
        help: ArgumentHelp(
            "The address to listen on; anyone who can connect can use the sandbox.",
            valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port; 0 picks a free one (printed in orgUrl).", valueName: "port"))
    var port = 0

    @Option(
        name: .customLong("api-token"),
        help: ArgumentHelp("This management API token instead of a random one.", valueName: "token"))
    var apiToken: String?

    @Option(
        help: ArgumentHelp("A JSON configuration file; see docs/sandbox.md.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var config: String?

    @Flag(
        help:
            "Print `export NAME='value'` lines (OKTA_CLIENT_ORGURL, ...) instead of the JSON line, written at once."
    )
    var env = false

    @Flag(help: "Serve https only, with a CA made at start (its file printed as caFile, IDFLOW_CA_FILE).")
    var tls = false

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "With --tls: this PEM chain (leaf first) instead of a generated one.", valueName: "file"),
        completion: .file(extensions: ["pem", "crt"]))
    var tlsCert: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("With --tls: the PEM private key of --tls-cert.", valueName: "file"),
        completion: .file(extensions: ["pem", "key"]))
    var tlsKey: String?

    @Option(
        name: .customLong("tls-client-ca"),
        help: ArgumentHelp(
            "With --tls: require, on every route, a client certificate signed by a CA in this PEM file (mutual TLS).",
            valueName: "file"),
        completion: .file(extensions: ["pem", "crt"]))
    var tlsClientCA: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if !tls {
            let given = [("--tls-cert", tlsCert), ("--tls-key", tlsKey), ("--tls-client-ca", tlsClientCA)].filter { $0.1 != nil }
            if let first = given.first { throw ValidationError("\(first.0) needs --tls") }
        }
        if tlsCert != nil, tlsKey == nil { throw ValidationError("--tls-cert needs --tls-key (the certificate's private key)") }
        if tlsKey != nil, tlsCert == nil { throw ValidationError("--tls-key needs --tls-cert (the certificate it belongs to)") }
    }

    func run() async throws {
        let console = CommandRunner.environment.console
        try await CommandRunner.report(to: console) { () throws(IdFlowError) in
            var configuration: SandboxConfiguration
            do {
                configuration = try config.map { try SandboxConfiguration.load(from: URL(fileURLWithPath: $0)) } ?? SandboxConfiguration()
            } catch {
                throw .invalidInput("cannot use the sandbox configuration \(config ?? ""): \(error)")
            }
            configuration.host = host
            configuration.port = port
            if let apiToken { configuration.apiToken = apiToken }
            if tls {
                do {
                    configuration.tls = try SandboxTLSConfiguration.load(
                        certificateFile: tlsCert, keyFile: tlsKey, clientCAFile: tlsClientCA)
                } catch {
                    throw .invalidInput("\(error)")
                }
            }
            if let warning = ListenAddress.warning(host: host, tls: tls) { console.line(warning) }
            do {
                try await SandboxServer.serveUntilSignalled(configuration) { info in
                    // The info line is what scripts wait for; it is printed only once the server listens, in one write,
                    // so a script that sees the file non-empty sees all of it.
                    if env {
                        console.standardOutput(Data(info.shellExports.utf8))
                    } else if let line = try? JSONOutput.encode(info, style: .compact) {
                        console.standardOutput(line)
                    }
                }
            } catch SandboxServerError.addressInUse(let host, let port) {
                throw .invalidInput(
                    "port \(port) is in use on \(host)",
                    hint: "try --port 0, which picks a free port (printed in orgUrl), or stop what listens on \(port)")
            } catch {
                throw .network(url: "\(host):\(port)", reason: "cannot listen: \(error)")
            }
        }
    }
}
