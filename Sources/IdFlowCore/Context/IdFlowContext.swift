import Foundation

/// Everything a flow needs from the outside world, passed in so tests can replace each piece.
public struct IdFlowContext: Sendable {
    public var configuration: Configuration
    public var http: HTTPClient
    public var secrets: SecretReader
    /// The standard streams: stdout for the JSON result, stderr for people.
    public var console: Console
    /// Human messages and progress: stderr, never stdout (stdout is the JSON contract). Silent with `--quiet`.
    public var message: @Sendable (String) -> Void
    /// What `--quiet` still shows: a warning, or what a person must act on (a URL to open, a code to enter, a
    /// number to pick), without which a quiet run would wait for something nobody was told to do.
    public var notice: @Sendable (String) -> Void
    public var now: @Sendable () -> Date

    public init(
        configuration: Configuration, http: HTTPClient, secrets: SecretReader, console: Console = .live,
        message: (@Sendable (String) -> Void)? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.http = http
        self.secrets = secrets
        self.console = console
        let show: @Sendable (String) -> Void = message ?? { console.line($0) }
        let silent: @Sendable (String) -> Void = { _ in }
        self.message = message == nil && configuration.quiet ? silent : show
        self.notice = show
        self.now = now
    }

    /// The context of a run: configuration resolved from flags, the environment and files; `transport` for
    /// HTTP (`StandardTransport`, libcurl with the configuration's CA, certificate and proxy, when `transport` is
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
        return make(configuration: configuration, secrets: secrets, console: console, transport: transport(), curl: curl, sleep: sleep)
    }

    /// The context of a real run with an already resolved configuration (the demo builds its own); stdin is
    /// not read, so nothing can block on it.
    public static func live(configuration: Configuration, console: Console = .live) -> IdFlowContext {
        let secrets = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { console.line($0) })
        return make(configuration: configuration, secrets: secrets, console: console, transport: nil)
    }

    private static func make(
        configuration: Configuration, secrets: SecretReader, console: Console, transport: (any HTTPTransport)?, curl: CurlScript? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> IdFlowContext {
        let trace = configuration.verbose ? HTTPTrace(write: { console.line($0) }) : nil
        var notes: (@Sendable (String) -> Void)? = nil
        if let trace { notes = { trace.note($0) } }
        let http = HTTPClient(
            transport: transport ?? StandardTransport.make(options: configuration.transportOptions, notes: notes),
            timeout: configuration.timeout, retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries), trace: trace, curl: curl,
            sleep: sleep)
        return IdFlowContext(configuration: configuration, http: http, secrets: secrets, console: console)
    }

    public func usersAPI() throws(IdFlowError) -> UsersAPI {
        UsersAPI(http: http, orgURL: try configuration.requireOrgURL(), credentials: try managementCredentials())
    }
}
