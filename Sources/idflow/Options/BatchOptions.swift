import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// The flags of `register --batch`: where the users come from and how the batch runs.
struct BatchOptions: ParsableArguments {
    @Option(
        name: .customLong("batch"),
        help: ArgumentHelp(
            "Create one user per line of this file (- reads stdin); prints one NDJSON line per input line, in input order.",
            discussion: """
                NDJSON lines are {"email", "firstName"?, "lastName"?, "login"?, "attrs"?: {…}}; a CSV starts with a header row \
                naming the same columns, and any other column is a profile attribute. A malformed line is reported for that \
                line and the rest still run.
                """,
            valueName: "file"),
        completion: .file())
    var file: String?

    @Option(
        help: ArgumentHelp(
            "The format of the --batch input; default: by the file's extension (.csv, .ndjson, .jsonl), else by its first line.",
            valueName: "format"))
    var format: BatchFormat?

    @Option(help: ArgumentHelp("Requests in flight at once with --batch (1–64, default 4).", valueName: "n"))
    var concurrency: Int?

    @Flag(help: "With --batch: activate each user after creating it (PROVISIONED; its activation token and URL in its line).")
    var activate = false

    @Flag(
        name: .customLong("skip-existing"),
        help:
            "With --batch: a login that already exists is looked up and reported with \"skipped\": true, so a rerun finishes an interrupted batch."
    )
    var skipExisting = false

    @Flag(
        name: .customLong("summary-json"),
        help:
            "With --batch: end stderr with the summary as one JSON line {\"summary\": {\"lines\", \"created\", \"skipped\", \"failed\", \"notRun\", \"requests\", \"elapsedSeconds\", \"interrupted\", \"exitCode\"}}."
    )
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
