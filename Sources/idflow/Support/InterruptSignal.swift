import Foundation
import IdFlowCore
import IdFlowFoundation

/// Turns Ctrl-C (SIGINT) and SIGTERM into a `BatchInterruption` for as long as a batch runs, so the batch can
/// finish what is under way and report it, with its summary and what to rerun, instead of dying mid-line; the
/// default actions are restored afterwards.
enum InterruptSignal {
    static func whileRunning(_ body: (BatchInterruption) async throws -> Void) async throws {
        let interruption = BatchInterruption()
        try await Interruption.whileWatchingInterrupts({ interruption.trigger() }) { try await body(interruption) }
    }
}
