import Foundation

/// Everything a flow needs from the outside world, passed in so tests can replace each piece.
public struct IdFlowContext: Sendable {
    public var configuration: Configuration
    public var http: HTTPClient
    public var secrets: SecretReader
    /// Human messages and progress: stderr, never stdout (stdout is the JSON contract).
    public var message: @Sendable (String) -> Void
    public var now: @Sendable () -> Date

    public init(
        configuration: Configuration, http: HTTPClient, secrets: SecretReader, message: @escaping @Sendable (String) -> Void,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.http = http
        self.secrets = secrets
        self.message = message
        self.now = now
    }

    /// The context of a real run: configuration resolved from flags, the environment and files; URLSession;
    /// stdin; messages and the trace on stderr.
    public static func live(flags: ConfigurationFlags, environment: [String: String] = ProcessInfo.processInfo.environment) throws(IdFlowError) -> IdFlowContext {
        let secrets = SecretReader(
            readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() }, environment: environment, warn: standardErrorLine)
        let configuration = try ConfigurationResolver(environment: environment, secrets: secrets).resolve(flags)
        return live(configuration: configuration, secrets: secrets)
    }

    /// The context of a real run with an already resolved configuration (the demo builds its own).
    public static func live(configuration: Configuration, secrets: SecretReader? = nil) -> IdFlowContext {
        let secrets = secrets ?? SecretReader(readStandardInput: { Data() }, environment: [:], warn: standardErrorLine)
        let http = HTTPClient(
            transport: URLSessionTransport(), timeout: configuration.timeout,
            retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries),
            trace: configuration.verbose ? .standardError : nil)
        return IdFlowContext(configuration: configuration, http: http, secrets: secrets, message: standardErrorLine)
    }

    /// Writes one human line to stderr (stdout is the JSON contract).
    static let standardErrorLine: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }

    public func usersAPI() throws(IdFlowError) -> UsersAPI {
        UsersAPI(http: http, orgURL: try configuration.requireOrgURL(), apiToken: try configuration.requireAPIToken())
    }
}
