import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The README's examples, run as written: a README that drifts from the tool fails here, not in a newcomer's
/// terminal. A shell block is run when the line before its fence is `<!-- readme-example: runbook -->` (the
/// runbook, which starts its own sandbox) or `<!-- readme-example: after runbook[, sandbox config JSON] -->`
/// (run in the same `bash -euo pipefail` right after the runbook, whose sandbox is then started with that
/// `--config`). The built `idflow` comes first on PATH; HOME is a fresh directory; the sandbox dies with the shell.
@Suite(.serialized) struct ReadmeExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var line: Int
        var afterRunbook: Bool
        var sandboxConfig: String?
        var script: String
        var testDescription: String { "README.md line \(line)" }
    }

    static let marker = "<!-- readme-example:"

    /// Every marked block of the README, in order.
    static func examples() throws -> [Example] {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(marker), line.hasSuffix("-->") else {
                index += 1
                continue
            }
            let tag = line.dropFirst(marker.count).dropLast(3).trimmingCharacters(in: .whitespaces)
            let fence = lines[index + 1]
            let indent = String(fence.prefix { $0 == " " })
            precondition(
                fence.trimmingCharacters(in: .whitespaces) == "```sh", "README.md:\(index + 2): a readme-example must be a ```sh block")
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
                    line: index + 1, afterRunbook: tag.hasPrefix("after runbook"), sandboxConfig: config,
                    script: body.joined(separator: "\n")))
            index = end + 1
        }
        return examples
    }

    @Test func theReadmeMarksItsRunbookAndTheExamplesThatFollowIt() throws {
        let examples = try Self.examples()
        #expect(examples.filter { !$0.afterRunbook }.count == 1, "exactly one runbook block")
        #expect(examples.filter(\.afterRunbook).count >= 6)
    }

    @Test(arguments: try examples())
    func theExampleRunsAsWritten(_ example: Example) async throws {
        let runbook = try #require(try Self.examples().first { !$0.afterRunbook })
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
            \(example.afterRunbook ? "# --- README.md line \(example.line)\n" + example.script : "")
            """
        let result = try await Self.bash(script, in: folder)
        #expect(result.status == 0, "README.md line \(example.line) failed (exit \(result.status)):\n\(result.output)")
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
