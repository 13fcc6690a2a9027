import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The committed completions and man page are what packagers ship; they must match the binary's command tree.
struct GeneratedFilesTests {
    @Test(arguments: [("bash", "idflow.bash"), ("zsh", "_idflow"), ("fish", "idflow.fish")])
    func completionScriptsMatchTheBinary(shell: String, file: String) async throws {
        let committed = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        for arguments in [["completion", shell], ["--generate-completion-script", shell]] {
            let generated = try await IdFlowBinary.run(arguments, environment: [:])
            #expect(generated.exitCode == 0)
            #expect(
                generated.stdout == committed, "completions/\(file) drifted from `idflow \(arguments[0])`: run scripts/gen-completions.sh")
        }
    }

    /// Every subcommand and every long option of the command tree appears in man/idflow.1.
    @Test func theManPageCoversEveryCommandAndOption() async throws {
        let dump = try await IdFlowBinary.run(["--experimental-dump-help"], environment: [:])
        let tree = try JSONValue(data: Data(dump.stdout.utf8))
        let manual = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("man/idflow.1"), encoding: .utf8)
        var missing: [String] = []
        func walk(_ command: JSONValue, path: [String]) {
            let name = command["commandName"]?.stringValue ?? ""
            let here = path + [name]
            // Subcommands are items of the form `.It Em name`.
            if path.count > 0, !manual.contains(".It Em \(name)\n") { missing.append(here.joined(separator: " ")) }
            for argument in command["arguments"]?.arrayValue ?? [] where argument["shouldDisplay"] != false {
                for name in argument["names"]?.arrayValue ?? [] where name["kind"] == "long" {
                    // mdoc escapes the dash: `Fl -org-url` is how the flag appears, `Fl q , -quiet` with a short name.
                    if let flag = name["name"]?.stringValue, !manual.contains("Fl -\(flag)"), !manual.contains(" , -\(flag)\n"),
                        !manual.contains(" , -\(flag) ")
                    {
                        missing.append("\(here.joined(separator: " ")) --\(flag)")
                    }
                }
            }
            for sub in command["subcommands"]?.arrayValue ?? [] { walk(sub, path: here) }
        }
        walk(tree["command"] ?? .null, path: [])
        #expect(missing.isEmpty, "man/idflow.1 lacks \(missing); run scripts/gen-man.sh")
        for code in ["OKTA_CLIENT_ORGURL", "IDFLOW_STATE_DIR"] {
            #expect(manual.contains(code))
        }
    }

    var manual: String {
        get throws { try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("man/idflow.1"), encoding: .utf8) }
    }

    /// The lines of one `.Sh` section of man/idflow.1.
    func section(_ name: String) throws -> String {
        let lines = try manual.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == ".Sh \(name)" || $0 == ".Sh \"\(name)\"" }) else { return "" }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// A blank line is groff's "mdoc warning: Empty input line"; the sections a man page is read for are there.
    @Test func theManPageHasTheSectionsOfAManualAndNoBlankLine() async throws {
        let lines = try manual.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!lines.contains(""), "man/idflow.1 has blank lines: run scripts/gen-man.sh")
        for name in ["DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(try !section(name).isEmpty, "man/idflow.1 lacks \(name)")
        }
        let files = try section("FILES")
        for path in [
            "config.yaml", "okta.yaml", "tokens.json", "{state-dir}/idx/", "{state-dir}/activations/", "custom-registrations/",
            "keys/KID.json",
        ] {
            #expect(files.contains(path), "FILES lacks \(path)")
        }
        // The help's examples stay literal, their continuation lines included.
        #expect(
            try manual.contains(
                ".Bd -literal -offset indent\n$ idflow register --embedded --answer userProfile.email=new@example.com \\e\n"))
    }

    /// EXIT STATUS lists every code of the exit-code table of `idflow --help`, with its meaning.
    @Test func theManPagesExitStatusIsTheHelpsTable() async throws {
        let help = try await IdFlowBinary.run(["--help"], environment: ["COLUMNS": "200"])
        let table = help.stdout.split(separator: "\n").filter { $0.wholeMatch(of: /\s*\d+  \S.*/) != nil }
        #expect(table.count >= 15)
        let exitStatus = try section("EXIT STATUS")
        for row in table {
            let parts = row.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            let meaning = parts[1].trimmingCharacters(in: .whitespaces)
            #expect(exitStatus.contains(".It \(parts[0])\n\(meaning)\n"), "EXIT STATUS lacks \(row)")
        }
    }

    /// Every environment variable the sources read is described under ENVIRONMENT.
    @Test func theManPageDescribesEveryEnvironmentVariableRead() async throws {
        let environment = try section("ENVIRONMENT")
        var names: Set<String> = []
        for target in ["IdFlowFoundation", "IdFlowCore", "idflow", "IdFlowSandbox"] {
            let folder = Fixtures.packageRoot.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: /"((?:OKTA|IDFLOW|XDG|SSL)_[A-Z0-9_]+|HOME|BROWSER|(?i:(?:https|all|no)_proxy))"/) {
                    names.insert(String(match.1))
                }
            }
        }
        #expect(names.count >= 20)
        for name in names.sorted() {
            #expect(
                environment.contains(".It Ev \(name)\n") || environment.contains("Ev \(name) ,") || environment.contains("Ev \(name)\n"),
                "ENVIRONMENT lacks \(name)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
    func groffRendersTheManPageWithoutAWarning() async throws {
        let groff = try await ExternalCommand.run(
            "/usr/bin/groff", ["-ww", "-z", "-mandoc", "-Tutf8", Fixtures.packageRoot.appendingPathComponent("man/idflow.1").path])
        #expect(groff.status == 0)
        #expect(groff.standardError.isEmpty, "groff: \(groff.standardError)")
    }
}
