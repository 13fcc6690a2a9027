import Foundation
import IdFlowFoundation

extension IdFlowContext {
    /// The context of a run: configuration resolved from flags, the environment and files; `transport` for
    /// HTTP (`CurlTransport`, libcurl with the configuration's CA, certificate and proxy, when `transport` is
    /// nil; a script in tests); stdin and messages through `console`.
    public static func resolve(
        flags: ConfigurationFlags, environment: [String: String], console: Console = .live,
        transport: @autoclosure () -> (any HTTPTransport)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) throws(IdFlowError) -> IdFlowContext {
        // Before the configuration is weighed, so a misspelt variable is named even when its absence is the error.
        for warning in EnvironmentVariableTypos.warnings(in: environment) { console.line(warning) }
        let secrets = SecretReader(readStandardInput: console.readStandardInput, environment: environment, warn: { console.line($0) })
        let configuration = try ConfigurationResolver(environment: environment, secrets: secrets).resolve(flags)
        let curl = try configuration.curl.map { output throws(IdFlowError) in
            try CurlScript.make(output, transport: configuration.transportOptions, console: console)
        }
        return make(configuration: configuration, secrets: secrets, console: console, transport: transport(), observer: curl, sleep: sleep)
    }
}
