import Foundation
import IdFlowCore

/// Turns Ctrl-C (SIGINT) into a `BatchInterruption` for as long as a batch runs, so the batch can finish what
/// is under way and report it instead of dying mid-line; the default action is restored afterwards.
enum InterruptSignal {
    static func whileRunning(_ body: (BatchInterruption) async throws -> Void) async throws {
        let interruption = BatchInterruption()
        try await Interruption.whileWatchingSIGINT({ interruption.trigger() }) { try await body(interruption) }
    }
}
