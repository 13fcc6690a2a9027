import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The README's and the guides' examples, run as written: documentation that drifts from the tool fails here, not in
/// a newcomer's terminal. A shell block is run when the line before its fence is `<!-- readme-example: runbook -->`
/// (the runbook, exactly one, in README.md, which starts its own sandbox) or `<!-- readme-example: after runbook[,
/// sandbox config JSON] -->` (in README.md or any `docs/*.md`: run in the same `bash -euo pipefail` right after the
/// runbook, whose sandbox is then started with that `--config`). The built `idflow` comes first on PATH; HOME is a
/// fresh directory; the sandbox dies with the shell.
@Suite(.serialized) struct ReadmeExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        /// The file, relative to the package root: `README.md` or `docs/NAME.md`.
        var file: String
        var line: Int
        var afterRunbook: Bool
        var sandboxConfig: String?
        var script: String
        var testDescription: String { "\(file) line \(line)" }
    }

    static let marker = "<!-- readme-example:"

    /// The files whose marked blocks run: README.md, then every `docs/*.md` by file name.
    static func documents() throws -> [String] {
        let docs = Fixtures.packageRoot.appendingPathComponent("docs", isDirectory: true)
        let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + guides.map { "docs/" + $0 }
    }

    /// Every marked block of README.md and the guides, file by file, in order.
    static func examples() throws -> [Example] {
        try documents().flatMap { try examples(in: $0) }
    }

    /// The one runbook, README.md's.
    static func runbook() throws -> Example {
        try #require(try examples(in: "README.md").first { !$0.afterRunbook })
    }

    /// The marked blocks of one file, in order.
    static func examples(in file: String) throws -> [Example] {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(marker), line.hasSuffix("-->") else {
                index += 1
                continue
            }
            let tag = line.dropFirst(marker.count).dropLast(3).trimmingCharacters(in: .whitespaces)
            let fence = index + 1 < lines.count ? lines[index + 1] : ""
            let indent = String(fence.prefix { $0 == " " })
            precondition(
                fence.trimmingCharacters(in: .whitespaces) == "```sh", "\(file):\(index + 2): a readme-example must be a ```sh block")
            var body: [String] = []
            var end = index + 2
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[end].dropFirst(min(indent.count, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            var config: String?
            if let range = tag.range(of: "sandbox config ") { config = String(tag[range.upperBound...]) }
            examples.append(
                Example(
                    file: file, line: index + 1, afterRunbook: tag.hasPrefix("after runbook"), sandboxConfig: config,
                    script: body.joined(separator: "\n")))
            index = end + 1
        }
        return examples
    }

    @Test func theReadmeMarksItsRunbookAndTheGuidesMarkTheExamplesThatFollowIt() throws {
        let examples = try Self.examples()
        let runbooks = examples.filter { !$0.afterRunbook }
        #expect(runbooks.count == 1, "exactly one runbook block: \(runbooks.map(\.testDescription))")
        #expect(runbooks.first?.file == "README.md", "the runbook is README.md's")
        // 20 when the README's examples moved into docs/; an example may move, none may be lost.
        #expect(examples.filter(\.afterRunbook).count >= 20)
        #expect(Set(examples.filter(\.afterRunbook).map(\.file)).count >= 10, "the examples live in the guides of their tasks")
    }

    @Test(arguments: try examples())
    func theExampleRunsAsWritten(_ example: Example) async throws {
        let runbook = try Self.runbook()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-readme-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var prelude = runbook.script
        if let config = example.sandboxConfig {
            try Data(config.utf8).write(to: folder.appendingPathComponent("sandbox-config.json"))
            prelude = prelude.replacingOccurrences(of: "idflow sandbox >", with: "idflow sandbox --config sandbox-config.json >")
        }
        let script = """
            set -euo pipefail
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
            \(prelude)
            \(example.afterRunbook ? "# --- \(example.testDescription)\n" + example.script : "")
            """
        let result = try await Self.bash(script, in: folder)
        #expect(result.status == 0, "\(example.testDescription) failed (exit \(result.status)):\n\(result.output)")
    }

    /// Runs `script` with bash in `folder`, the built idflow first on PATH, stdout and stderr together. `timeout`
    /// ends the whole process group (the sandbox included) should an example hang.
    static func bash(_ script: String, in folder: URL) async throws -> (status: Int32, output: String) {
        let path =
            IdFlowBinary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await ExternalCommand.run(
            "/usr/bin/timeout", ["--kill-after=10", "180", "/bin/bash", "-c", script],
            environment: ["PATH": path, "HOME": folder.path, "LANG": "C.UTF-8", "IDFLOW_MAX_RETRIES": "0"], directory: folder,
            mergeOutput: true)
        return (result.status, result.output)
    }

}
