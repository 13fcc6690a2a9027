import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `idflow sandbox --env` as a runbook uses it: the sandbox in the background writing a file, the shell waiting
/// until the file is there and sourcing it, and idflow running on nothing but what it exported.
@Suite struct SandboxEnvTests {
    @Test func theExportLinesConfigureIdflowWhenSourced() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-e2e-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        // A token a shell would mangle unless it is quoted: a quote, a space, `$` and a backquote.
        let token = "it's $HOME `id` ok"
        let script = """
            set -e
            idflow="$1"
            "$idflow" sandbox --port 0 --env --api-token "$2" > sandbox.env &
            sandbox=$!
            trap 'kill $sandbox' EXIT
            until [ -s sandbox.env ]; do sleep 0.05; done
            . ./sandbox.env
            [ "$OKTA_CLIENT_TOKEN" = "$2" ] || { echo "token mangled: $OKTA_CLIENT_TOKEN" >&2; exit 90; }
            "$idflow" register --email env@example.com
            env | grep -c '^OKTA_' > count.txt
            """
        let shell = try await ExternalCommand.run(
            "/bin/sh", ["-c", script, "sh", IdFlowBinary.url.path, token],
            environment: ["HOME": home.path, "PATH": path, "IDFLOW_STATE_DIR": home.appendingPathComponent("state").path], directory: home)
        let stderr = shell.standardError
        #expect(shell.status == 0, "\(stderr)")
        let user = try JSONValue(data: shell.standardOutput)
        #expect(user["status"] == "STAGED", "\(stderr)")
        #expect(user["profile"]?["login"] == "env@example.com")
        let count = try String(contentsOf: home.appendingPathComponent("count.txt"), encoding: .utf8)
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "5", "the five variables were exported")

        let lines = try String(contentsOf: home.appendingPathComponent("sandbox.env"), encoding: .utf8).split(separator: "\n")
        #expect(
            lines.map { $0.split(separator: "=").first.map(String.init) ?? "" } == [
                "export OKTA_CLIENT_ORGURL", "export OKTA_CLIENT_TOKEN", "export OKTA_OAUTH2_ISSUER", "export OKTA_OAUTH2_CLIENTID",
                "export OKTA_OAUTH2_REDIRECTURI",
            ])
        #expect(!lines.contains { $0.hasPrefix("{") }, "no JSON line with --env")
    }
}
