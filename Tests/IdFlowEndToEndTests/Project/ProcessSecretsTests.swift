import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// What the secrets an idflow process holds can reach outside it: the programs it starts and core files.
@Suite(.serialized)
struct ProcessSecretsTests {
    @Test func theBrowserIsStartedWithoutASingleSecretOfTheEnvironment() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let dump = sandbox.home.appendingPathComponent("browser-env.txt")
        let browser = sandbox.home.appendingPathComponent("dump-env.sh")
        try "#!/bin/sh\nenv > '\(dump.path)'\n".write(to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o700)
        let login = try await sandbox.idflow(
            ["login-pkce", "--browser", "--browser-timeout", "2"],
            environment: [
                "BROWSER": browser.path, "IDFLOW_PASSWORD": "pw-in-env", "IDFLOW_ACTIVATION_TOKEN": "act-in-env", "IDFLOW_PIN": "4711",
                "GITHUB_TOKEN": "ghp_in_env", "AWS_SECRET_ACCESS_KEY": "aws-in-env", "HARMLESS_SETTING": "kept",
            ])
        #expect(login.exitCode == 9, "no redirect came, so the login gives up: \(login.stderr)")
        let seen = try String(contentsOf: dump, encoding: .utf8)
        for secret in [sandbox.apiToken, "pw-in-env", "act-in-env", "4711", "ghp_in_env", "aws-in-env"] {
            #expect(!seen.contains(secret), "the browser saw \(secret)")
        }
        #expect(!seen.contains("OKTA_CLIENT_TOKEN"))
        #expect(seen.contains("HARMLESS_SETTING=kept"), "the rest of the environment is passed on")
    }

    @Test func aRunningIdflowCannotWriteACoreFile() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let limits = try String(contentsOfFile: "/proc/\(sandbox.process.processIdentifier)/limits", encoding: .utf8)
        let core = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        let fields = core.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.dropFirst(4).prefix(2) == ["0", "0"], "\(core)")
    }
}
