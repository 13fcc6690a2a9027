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

    /// The context of a real run with an already resolved configuration (the demo builds its own); stdin is
    /// not read, so nothing can block on it.
    public static func live(configuration: Configuration, console: Console = .live) -> IdFlowContext {
        let secrets = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { console.line($0) })
        return make(configuration: configuration, secrets: secrets, console: console, transport: nil)
    }

    /// The context of `configuration`: the HTTP client with its transport (libcurl unless `transport` is given), trace
    /// and `observer` (the `--curl` script, made above the foundation by `resolve`).
    public static func make(
        configuration: Configuration, secrets: SecretReader, console: Console, transport: (any HTTPTransport)?,
        observer: (any HTTPObserver)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> IdFlowContext {
        let trace = configuration.verbose ? HTTPTrace(write: { console.line($0) }) : nil
        var notes: (@Sendable (String) -> Void)? = nil
        if let trace { notes = { trace.note($0) } }
        let http = HTTPClient(
            transport: transport ?? CurlTransport(options: configuration.transportOptions, notes: notes),
            timeout: configuration.timeout, retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries), trace: trace,
            observer: observer,
            sleep: sleep)
        return IdFlowContext(configuration: configuration, http: http, secrets: secrets, console: console)
    }
}
