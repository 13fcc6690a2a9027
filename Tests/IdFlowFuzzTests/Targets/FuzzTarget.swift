import Foundation

/// One parser of input that someone else wrote, driven by one fuzzer input.
///
/// `run` calls the code the product calls, with no copy of it: a target that parsed its own way would let the
/// product's parser go unsearched. It must return for every input (an error is an answer); only a crash, a hang or
/// unbounded memory is a finding. `prepare` builds what every input shares (a sandbox, a key) once, before the
/// first input, so that set-up is neither timed nor counted as coverage each time.
public struct FuzzTarget: Sendable {
    public let name: String
    /// What it feeds, for `scripts/fuzz.sh --list`.
    public let summary: String
    let prepare: @Sendable () -> Void
    let body: @Sendable (Data) -> Void

    init(
        name: String, summary: String, prepare: @escaping @Sendable () -> Void = {},
        body: @escaping @Sendable (Data) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.prepare = prepare
        self.body = body
    }

    /// Builds the shared state; call once before `run`.
    public func setUp() { prepare() }

    /// Feeds one input.
    public func run(_ input: Data) { body(input) }
}
