import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

@testable import idflow

/// The commands that run a server in-process: the demo end to end, and the sandbox's refusals.
@Suite struct ServerCommandTests {
    @Test func demoRunsEveryStepOnAnEmbeddedSandbox() async {
        let result = await CLI.run(["demo"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let steps = result.stdout.split(separator: "\n").compactMap { try? JSONValue(data: Data($0.utf8)) }
        #expect(
            steps.map { $0["step"]?.stringValue ?? "" } == [
                "register", "activate", "set-password", "login-pkce", "refresh", "api", "login-embedded", "enroll", "push-sign-in",
                "challenges",
                "resolve",
                "login-direct",
                "login-totp",
                "login-passkey",
                "register-idp",
            ])
        #expect(steps.allSatisfy { $0["ok"] == true })
        #expect(result.stderr.contains("✔ refresh"))
        #expect(result.stderr.contains("✔ login-direct: signed in with Direct Authentication: a push approved by this machine, the number"))
        #expect(result.stderr.contains("✔ register-idp: registered 00u"))
        #expect(result.stderr.contains("✔ login-passkey: signed in with the passkey alone: no username, no password"))
    }

    @Test func sandboxWithAnUnreadableConfigurationIsAUsageError() async {
        let result = await CLI.run(["sandbox", "--config", "/nonexistent/sandbox.json"])
        #expect(result.exitCode == 64)
        #expect(result.error?["message"]?.stringValue?.contains("/nonexistent/sandbox.json") == true)
        #expect(result.stdout.isEmpty, "no info line before the server listens")
    }

    @Test func sandboxRefusesUnknownConfigurationKeys() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-sandbox-\(UUID().uuidString).json")
        try Data("{\"rateLimit\": {\"users\": 1}}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = await CLI.run(["sandbox", "--config", file.path])
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--tls-cert", "c.pem", "--tls-key", "k.pem"], "--tls-cert needs --tls"),
        (["--tls-client-ca", "ca.pem"], "--tls-client-ca needs --tls"),
        (["--tls", "--tls-cert", "c.pem"], "--tls-cert needs --tls-key"),
        (["--tls", "--tls-key", "k.pem"], "--tls-key needs --tls-cert"),
    ])
    func sandboxTLSFlagsThatDoNotGoTogetherAreUsageErrors(flags: [String], message: String) async {
        let result = await CLI.run(["sandbox"] + flags)
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.error?["message"]?.stringValue?.contains(message) == true, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func sandboxTLSFilesThatCannotBeUsedAreUsageErrorsNamingTheFile() async throws {
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-tls-\(UUID().uuidString).pem")
        try Data("not a certificate\n".utf8).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        for flags in [
            ["--tls-cert", "/nonexistent/server.pem", "--tls-key", garbage.path], ["--tls-cert", garbage.path, "--tls-key", garbage.path],
            ["--tls-client-ca", garbage.path],
        ] {
            let result = await CLI.run(["sandbox", "--tls"] + flags)
            #expect(result.exitCode == 64, "\(flags): \(result.stderr)")
            let named = flags.first { $0.hasPrefix("/") } ?? ""
            #expect(result.error?["message"]?.stringValue?.contains(named) == true, "\(flags): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
