import Dispatch
import Foundation

/// Turns Ctrl-C into a clean end of one wait: while `body` runs, SIGINT cancels it instead of killing the
/// process, so the command still prints its error line and exits 130 (CONTRACT.md) with nothing stored.
public enum Interruption {
    /// Runs `body`, cancelling it on SIGINT; a cancelled body ends as `.interrupted(message)`. The previous
    /// SIGINT disposition is restored afterwards.
    public static func cancellingOnSIGINT<T: Sendable>(
        _ message: String, _ body: @escaping @Sendable () async throws(IdFlowError) -> T
    ) async throws(IdFlowError) -> T {
        let task = Task { () async throws -> T in try await body() }
        let previous = signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, previous)
        }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch let error as IdFlowError where !task.isCancelled {
            throw error
        } catch {
            // A request cut off by the cancellation fails as a network error; the cause was the user.
            throw .interrupted(message)
        }
    }
}
