import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// A running sandbox. `idflow sandbox` starts one, prints `info`, and stops it on SIGINT/SIGTERM.
///
/// The server runs in a `ServiceGroup` without signal handlers of its own: the CLI owns signals.
public final class SandboxServer: Sendable {
    /// What a client needs: org URL, issuer, API token, client id, redirect URI.
    public let info: SandboxInfo
    /// The bound port (useful when the configuration asked for port 0).
    public let port: Int
    /// The server's state, for in-process callers (tests, `idflow demo`) that want to drive it.
    public let state: SandboxState

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(info: SandboxInfo, port: Int, state: SandboxState, serviceGroup: ServiceGroup, runTask: Task<Void, any Error>) {
        self.info = info
        self.port = port
        self.state = state
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// Starts a server and returns once it listens; throws if the configuration is invalid or the
    /// address cannot be bound. With `configuration.tls` it serves https only; a generated CA's file, and the
    /// default service app's private key file, are removed when the server stops.
    public static func start(_ configuration: SandboxConfiguration) async throws -> SandboxServer {
        try configuration.validate()
        let state = SandboxState(configuration: configuration)
        let logger = SandboxLogger.make()
        var server = HTTPServerBuilder.sandboxHTTP1(clock: state.clock)
        // The default service app's key is generated and written before the server runs, so that the task below
        // removes its file however the server stops.
        let serviceAppKeyFile = try await state.prepareServiceApps(writingKeyFile: true)
        var tls: SandboxTLS?
        if let tlsConfiguration = configuration.tls {
            do {
                let prepared = try SandboxTLS.prepare(tlsConfiguration, host: configuration.host)
                tls = prepared
                await state.didPrepareTLS(caFile: prepared.caFile)
                server = try .tls(.sandboxHTTP1(clock: state.clock), tlsConfiguration: prepared.serverConfiguration)
            } catch {
                if let serviceAppKeyFile { try? FileManager.default.removeItem(atPath: serviceAppKeyFile) }
                throw error
            }
        }
        let (bound, boundContinuation) = AsyncStream<Int>.makeStream()
        let application = makeApplication(configuration: configuration, state: state, logger: logger, server: server) { port in
            boundContinuation.yield(port)
            boundContinuation.finish()
        }
        let serviceGroup = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let runTask = Task { [tls] in
            // If the server fails before listening (address in use), end the wait below.
            defer {
                boundContinuation.finish()
                tls?.removeCAFile()
                if let serviceAppKeyFile { try? FileManager.default.removeItem(atPath: serviceAppKeyFile) }
            }
            try await serviceGroup.run()
        }
        var iterator = bound.makeAsyncIterator()
        guard let port = await iterator.next() else {
            do {
                try await runTask.value
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw SandboxServerError.addressInUse(host: configuration.host, port: configuration.port)
            }
            throw SandboxServerError.stoppedBeforeListening
        }
        // Generate the signing key now, so a client's first token request is not the slow one.
        try await state.prepareSigningKey()
        return SandboxServer(info: await state.info, port: port, state: state, serviceGroup: serviceGroup, runTask: runTask)
    }

    /// Stops accepting connections, lets requests in flight finish, and returns. Safe to call twice.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await runTask.value
    }

    /// Returns when the server has stopped (after `stop()`), rethrowing a failure that stopped it.
    public func waitUntilStopped() async throws {
        try await runTask.value
    }
}

/// Why a sandbox could not be started.
public enum SandboxServerError: Error, CustomStringConvertible {
    /// The server stopped before it reported a listening socket.
    case stoppedBeforeListening
    /// Something else listens on the port asked for: a user's mistake (another sandbox still running), not a
    /// network failure, so `idflow sandbox` says which port and how to get a free one.
    case addressInUse(host: String, port: Int)

    public var description: String {
        switch self {
        case .stoppedBeforeListening: return "the sandbox server stopped before it started listening"
        case .addressInUse(let host, let port): return "port \(port) is in use on \(host)"
        }
    }
}
