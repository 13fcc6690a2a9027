import IdFlowCore
import IdFlowFoundation

/// The error a flow ends with, nil when it succeeds, so a test can assert on what the user sees of it
/// (its exit status, its message) and on what it left behind.
func failure<Value>(_ flow: () async throws(IdFlowError) -> Value) async -> IdFlowError? {
    do {
        _ = try await flow()
        return nil
    } catch {
        return error
    }
}
