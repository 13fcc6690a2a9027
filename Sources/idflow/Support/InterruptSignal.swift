import Dispatch
import Foundation
import IdFlowCore

/// Turns Ctrl-C (SIGINT) into a `BatchInterruption` for as long as a batch runs, so the batch can finish what
/// is under way and report it instead of dying mid-line; the default action is restored afterwards.
enum InterruptSignal {
    static func whileRunning(_ body: (BatchInterruption) async throws -> Void) async throws {
        let interruption = BatchInterruption()
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { interruption.trigger() }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        try await body(interruption)
    }
}
