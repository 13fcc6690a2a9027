import Foundation

/// Where a test does what blocks: on a thread of its own, never on one of Swift's cooperative threads. On Linux those
/// are libdispatch's default-QoS root threads, one per core, and Foundation's `Process` learns that a child exited on
/// the same threads: with both cores' threads blocked (one test waiting for a program, another for a task) nothing
/// can finish, and the suite hung until killed on a loaded two-core machine.
public enum DedicatedThread {
    /// Runs `body` on a new thread and returns what it returns, suspending (not blocking) the caller.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
