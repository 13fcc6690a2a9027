import Foundation
import NIOConcurrencyHelpers

extension SandboxServer {
    /// Runs a sandbox until SIGINT or SIGTERM, as `idflow sandbox` does: `listening` is called once with the
    /// server's info as soon as it accepts connections; a signal then stops it gracefully (requests in
    /// flight finish) and this returns normally.
    ///
    /// Signals are watched before the server starts, so a Ctrl-C during start-up still stops it cleanly
    /// instead of leaving a listener behind.
    public static func serveUntilSignalled(
        _ configuration: SandboxConfiguration, listening: @escaping @Sendable (SandboxInfo) -> Void
    ) async throws {
        let running = NIOLockedValueBox<(server: SandboxServer?, stopRequested: Bool)>((nil, false))
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) {
            let server = running.withLockedValue { state -> SandboxServer? in
                state.stopRequested = true
                return state.server
            }
            if let server { Task { await server.stop() } }
        }
        defer { signals.cancel() }
        let server = try await start(configuration)
        let stopAlreadyRequested = running.withLockedValue { state in
            state.server = server
            return state.stopRequested
        }
        if stopAlreadyRequested {
            await server.stop()
            return
        }
        listening(server.info)
        try await server.waitUntilStopped()
    }
}
