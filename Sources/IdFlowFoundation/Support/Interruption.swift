import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into a clean end of one wait: while `body` runs, either signal cancels it
/// instead of killing the process, so the command still prints its error line and exits 130 (docs/contract.md) with
/// nothing stored. SIGTERM is what `kill`, a CI runner's timeout and a service manager send: a runbook stopped
/// that way is told what happened as one stopped by Ctrl-C is.
public enum Interruption {
    /// The signals a wait turns into `.interrupted`.
    public static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Runs `body`, cancelling it on SIGINT or SIGTERM; a cancelled body ends as `.interrupted(message)`. The
    /// previous dispositions are restored afterwards. A prompt inside `body` (`PromptInterruption`) takes the
    /// signals for itself while it waits for a line.
    public static func cancellingOnInterrupt<T: Sendable>(
        _ message: String, _ body: @escaping @Sendable () async throws(IdFlowError) -> T
    ) async throws(IdFlowError) -> T {
        let task = Task { () async throws -> T in try await body() }
        do {
            return try await whileWatchingInterrupts({ task.cancel() }) {
                try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            }
        } catch let error as IdFlowError where !task.isCancelled {
            throw error
        } catch {
            // A request cut off by the cancellation fails as a network error; the cause was the user.
            throw .interrupted(message)
        }
    }

    /// Calls `handler` on every SIGINT and SIGTERM while `body` runs, instead of the signals' default action (a
    /// batch stops taking new lines, a wait is cancelled); the previous dispositions are back afterwards.
    public static func whileWatchingInterrupts<T>(
        _ handler: @escaping @Sendable () -> Void, _ body: () async throws -> T
    ) async rethrows -> T {
        let watch = InterruptWatch.shared.register(handler)
        defer { InterruptWatch.shared.unregister(watch) }
        return try await body()
    }
}

/// SIGINT and SIGTERM as events: a handler that only writes a byte to a pipe (all a signal handler may safely
/// do), and a thread of its own that reads the pipe and calls whoever is registered. Unlike a dispatch signal
/// source, it can be installed and removed any number of times in one process, and it never races a prompt's
/// own handler for the signal: while a prompt waits, the prompt's handler is the one installed.
final class InterruptWatch: @unchecked Sendable {
    static let shared = InterruptWatch()

    // The signal handler can reach only globals.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    private struct State {
        var next = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
        /// The dispositions found when the first handler was registered, by signal.
        var previous: [Int32: sigaction] = [:]
    }
    private let state = Locked(State())

    private init() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        Self.writeEnd = ends[1]
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let readEnd = ends[0]
        let thread = Thread { [state] in
            // Worker threads block most signals; this one takes both, so there is always a thread to run the handler.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            for signal in Interruption.signals { sigaddset(&unblock, signal) }
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                for handler in state.withLock({ Array($0.handlers.values) }) { handler() }
            }
        }
        thread.name = "idflow-signals"
        thread.start()
    }

    /// Calls `handler` on every SIGINT and SIGTERM until `unregister`; the first registration installs the handler.
    func register(_ handler: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            if state.handlers.isEmpty {
                var action = sigaction()
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                #if canImport(Glibc)
                    action.__sigaction_handler.sa_handler = InterruptWatch.handle
                #else
                    action.__sigaction_u.__sa_handler = InterruptWatch.handle
                #endif
                for signal in Interruption.signals {
                    var previous = sigaction()
                    sigaction(signal, &action, &previous)
                    state.previous[signal] = previous
                }
            }
            state.next += 1
            state.handlers[state.next] = handler
            return state.next
        }
    }

    /// Stops calling the handler; the last one out puts the previous dispositions back.
    func unregister(_ id: Int) {
        state.withLock { state in
            state.handlers[id] = nil
            guard state.handlers.isEmpty else { return }
            for (signal, var previous) in state.previous { sigaction(signal, &previous, nil) }
            state.previous = [:]
        }
    }

    private static let handle: @convention(c) (Int32) -> Void = { _ in
        var byte: UInt8 = 1
        _ = write(InterruptWatch.writeEnd, &byte, 1)
    }
}
