import Foundation
import IdFlowCore
import IdFlowFoundation

/// Builds contexts for flow tests: a scripted transport, no real waiting, captured messages, and a console that is
/// never a terminal (a flow under test must not prompt on the terminal `swift test` happens to run in).
public enum TestContext {
    public static func make(
        transport: any HTTPTransport, configuration: Configuration = TestContext.configuration(), stdin: String = "",
        environment: [String: String] = [:], messages: Locked<[String]> = Locked([]), sleeps: Locked<[Duration]> = Locked([])
    ) -> IdFlowContext {
        let http = HTTPClient(
            transport: transport, timeout: configuration.timeout, retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries),
            maxJitter: .zero, sleep: { duration in sleeps.withLock { $0.append(duration) } })
        let secrets = SecretReader(
            readStandardInput: { Data(stdin.utf8) }, environment: environment, warn: { line in messages.withLock { $0.append(line) } })
        let console = Console(
            standardOutput: { _ in }, standardError: { data in messages.withLock { $0.append(String(decoding: data, as: UTF8.self)) } },
            readStandardInput: { Data(stdin.utf8) }, readLine: { nil }, isInteractive: false)
        return IdFlowContext(
            configuration: configuration, http: http, secrets: secrets, console: console,
            message: { line in messages.withLock { $0.append(line) } })
    }

    /// A configuration pointing at `https://example.okta.com` with an API token and a throwaway state dir.
    public static func configuration(org: String = "https://example.okta.com", maxRetries: Int = 3) -> Configuration {
        Configuration(
            orgURL: URL(string: org), apiToken: Secret("test-api-token"), clientID: "0oatestclient",
            stateDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("idflow-tests-\(UUID().uuidString)"),
            maxRetries: maxRetries)
    }
}
