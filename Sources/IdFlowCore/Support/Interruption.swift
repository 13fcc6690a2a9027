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
        takeOverSIGINT()
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        defer {
            source.cancel()
            releaseSIGINT()
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

    /// How many waits hold SIGINT, and the disposition to restore when the last one ends; counted so that
    /// overlapping waits (in-process tests run side by side) cannot leave SIGINT ignored.
    private static let holders = Locked<(count: Int, previous: (@convention(c) (Int32) -> Void)?)>((0, nil))

    private static func takeOverSIGINT() {
        holders.withLock { state in
            if state.count == 0 { state.previous = signal(SIGINT, SIG_IGN) }
            state.count += 1
        }
    }

    private static func releaseSIGINT() {
        holders.withLock { state in
            state.count -= 1
            if state.count == 0 { signal(SIGINT, state.previous) }
        }
    }
}
