import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// The flags of `register --batch`: where the users come from and how the batch runs.
struct BatchOptions: ParsableArguments {
    @Option(
        name: .customLong("batch"),
        help: ArgumentHelp(
            "Create a user per line of this file (- for stdin).",
            valueName: "file"),
        completion: .file())
    var file: String?

    @Option(
        help: ArgumentHelp(
            "The --batch input's format; default: by its name.",
            valueName: "format"))
    var format: BatchFormat?

    @Option(help: ArgumentHelp("Requests in flight with --batch (1 to 64, default 4).", valueName: "n"))
    var concurrency: Int?

    @Flag(help: "With --batch: activate each user (PROVISIONED).")
    var activate = false

    @Flag(
        name: .customLong("skip-existing"),
        help: "With --batch: report existing logins as skipped.")
    var skipExisting = false

    @Flag(
        name: .customLong("summary-json"),
        help: "With --batch: end stderr with a JSON summary line.")
    var summaryJSON = false

    /// The batch-only flags given, as typed; `validate()` of the command refuses them without `--batch`.
    var givenWithoutBatch: [String] {
        [
            format.map { _ in "--format" }, concurrency.map { _ in "--concurrency" }, activate ? "--activate" : nil,
            skipExisting ? "--skip-existing" : nil, summaryJSON ? "--summary-json" : nil,
        ].compactMap { $0 }
    }

    func validate() throws {
        if let concurrency, !(1...64).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and 64 (got \(concurrency))")
        }
    }

    /// The flow these flags describe.
    func flow(interruption: BatchInterruption) -> BatchRegistration {
        BatchRegistration(
            source: file == "-" ? .standardInput : .file(file ?? ""), format: format, concurrency: concurrency ?? 4,
            activate: activate, skipExisting: skipExisting, interruption: interruption,
            summaryJSON: summaryJSON)
    }
}

extension BatchFormat: ExpressibleByArgument {}
