import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The committed completions and man pages are what packagers ship; they must match the binary's command tree.
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

    static let manualFolder = Fixtures.packageRoot.appendingPathComponent("man", isDirectory: true)

    /// The page of a command: man/idflow-token-get.1 for `idflow token get`.
    static func page(_ path: [String]) throws -> String {
        let name = (["idflow"] + path).joined(separator: "-") + ".1"
        return try String(contentsOf: manualFolder.appendingPathComponent(name), encoding: .utf8)
    }

    static var pageNames: [String] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: manualFolder.path).filter { $0.hasSuffix(".1") }.sorted()
        }
    }

    /// The group every command takes its configuration options from (`GlobalOptions`), as the dump names it.
    static let configurationTitle = "Configuration Options"

    /// Every command has its page and no page is left of a command that is gone; every long option of the command
    /// tree is described in its command's page, or once in man/idflow.1: a configuration option under
    /// CONFIGURATION OPTIONS, to which the pages of the commands that take them refer; `--client-secret-file`, the
    /// option of a setting that has no configuration option, there with its setting, naming the commands that take
    /// it; an option several commands take word for word under SHARED OPTIONS, which each of their pages names;
    /// --version and --help, which every command takes, only in man/idflow.1.
    @Test func theManPagesCoverEveryCommandAndOption() async throws {
        let dump = try await IdFlowBinary.run(["--experimental-dump-help"], environment: [:])
        let tree = try JSONValue(data: Data(dump.stdout.utf8))
        let configurationOptions = try section("CONFIGURATION OPTIONS")
        let sharedOptions = try section("SHARED OPTIONS")
        let root = try manual
        var missing: [String] = []
        var expectedPages: [String] = []
        var configurationFlags: Set<String> = []
        func described(_ flag: String, in text: String) -> Bool {
            // mdoc escapes the dash: `Fl -org-url` is how the flag appears, `Fl q , -quiet` with a short name.
            text.contains("Fl -\(flag)") || text.contains(" , -\(flag)\n") || text.contains(" , -\(flag) ")
        }
        func walk(_ command: JSONValue, path: [String]) throws {
            let name = command["commandName"]?.stringValue ?? ""
            // `idflow help login-pkce` is ArgumentParser's spelling of `idflow login-pkce --help`: no page of its own.
            if path.count == 1, name == "help" { return }
            let here = path.isEmpty ? [] : Array(path.dropFirst()) + [name]
            let label = (["idflow"] + here).joined(separator: " ")
            expectedPages.append((["idflow"] + here).joined(separator: "-") + ".1")
            guard let page = try? Self.page(here) else {
                missing.append("the page of \(label)")
                return
            }
            var takesConfiguration = false
            for argument in command["arguments"]?.arrayValue ?? [] {
                let isConfiguration = argument["sectionTitle"]?.stringValue == Self.configurationTitle
                guard isConfiguration || argument["shouldDisplay"] != false else { continue }
                takesConfiguration = takesConfiguration || isConfiguration
                for name in argument["names"]?.arrayValue ?? [] where name["kind"] == "long" {
                    guard let flag = name["name"]?.stringValue else { continue }
                    if flag == "version" || flag == "help" {
                        if !described(flag, in: root) { missing.append("idflow.1 --\(flag)") }
                        if described(flag, in: page), !here.isEmpty { missing.append("\(label) repeats --\(flag)") }
                    } else if isConfiguration {
                        configurationFlags.insert(flag)
                        if !described(flag, in: configurationOptions) { missing.append("idflow.1 CONFIGURATION OPTIONS --\(flag)") }
                        if described(flag, in: page), !here.isEmpty { missing.append("\(label) repeats --\(flag)") }
                    } else if configurationOptions.contains("\n.Fl -\(flag) ") {
                        let command = here.joined(separator: " ")
                        if described(flag, in: page) { missing.append("\(label) repeats --\(flag)") }
                        if !configurationOptions.contains(" \(command) ,") && !configurationOptions.contains(" \(command) .\n") {
                            missing.append("CONFIGURATION OPTIONS does not name \(label) for --\(flag)")
                        }
                    } else if !described(flag, in: page) {
                        missing.append("\(label) --\(flag)")
                    }
                }
            }
            // The item that names a page's shared options sends the reader to idflow.1, which describes each one.
            let lines = page.split(separator: "\n").map(String.init)
            for (index, line) in lines.enumerated()
            where line.hasPrefix(".It Fl ") && lines.dropFirst(index + 1).starts(with: ["See", ".Xr idflow 1 ."]) {
                for match in line.matches(of: /(?:Fl | , )-([a-z0-9-]+)/) where !sharedOptions.contains(".It Fl -\(match.1)") {
                    missing.append("idflow.1 SHARED OPTIONS --\(match.1) (named by \(label))")
                }
            }
            if takesConfiguration, !page.contains(".Sh SEE ALSO\n.Xr idflow 1") {
                missing.append("\(label) does not refer to idflow(1) for the configuration options")
            }
            for sub in command["subcommands"]?.arrayValue ?? [] { try walk(sub, path: path + [name]) }
        }
        try walk(tree["command"] ?? .null, path: [])
        #expect(missing.isEmpty, "man/ lacks \(missing); run scripts/gen-man.sh")
        #expect(configurationFlags.count >= 25)
        #expect(try Self.pageNames == expectedPages.sorted(), "man/ has pages of no command, or lacks some: run scripts/gen-man.sh")
        for code in ["OKTA_CLIENT_ORGURL", "IDFLOW_STATE_DIR"] {
            #expect(try manual.contains(code))
        }
    }

    var manual: String {
        get throws { try Self.page([]) }
    }

    /// The lines of one `.Sh` section of a page (man/idflow.1 by default).
    func section(_ name: String, of page: String? = nil) throws -> String {
        let lines = try (page ?? manual).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == ".Sh \(name)" || $0 == ".Sh \"\(name)\"" }) else { return "" }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// A blank line is groff's "mdoc warning: Empty input line"; the sections a man page is read for are there.
    @Test func theManPagesHaveTheSectionsOfAManualAndNoBlankLine() async throws {
        for name in try Self.pageNames {
            let page = try String(contentsOf: Self.manualFolder.appendingPathComponent(name), encoding: .utf8)
            #expect(!page.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains(""), "man/\(name) has blank lines")
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"] {
                #expect(try !self.section(section, of: page).isEmpty, "man/\(name) lacks \(section)")
            }
            // Every command exits with the codes of idflow.1's EXIT STATUS; a command's page names that page instead.
            if name != "idflow.1" {
                #expect(try section("EXIT STATUS", of: page).isEmpty, "man/\(name)")
                #expect(try section("SEE ALSO", of: page).contains(".Xr idflow 1"), "man/\(name)")
            }
        }
        for name in [
            "DESCRIPTION", "COMMANDS", "CONFIGURATION OPTIONS", "SHARED OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES",
        ] {
            #expect(try !section(name).isEmpty, "man/idflow.1 lacks \(name)")
        }
        // COMMANDS names every top-level command's page; a group's page (idflow-token.1) names its commands' pages.
        let commands = try section("COMMANDS")
        let listed = Set(commands.split(separator: "\n").map(String.init))
        func lists(_ name: String) -> Bool { listed.contains(".Xr \(name) 1 ,") || listed.contains(".Xr \(name) 1 .") }
        let names = try Self.pageNames.map { String($0.dropLast(2)) }.filter { $0 != "idflow" }
        for name in names {
            let group = names.first { name.hasPrefix($0 + "-") }
            if let group {
                let groupPage = try String(contentsOf: Self.manualFolder.appendingPathComponent(group + ".1"), encoding: .utf8)
                #expect(try section("SEE ALSO", of: groupPage).contains(".Xr \(name) 1"), "man/\(group).1 lacks \(name)")
                #expect(!lists(name), "COMMANDS lists \(name), which \(group) lists")
            } else {
                #expect(lists(name), "COMMANDS lacks \(name)")
            }
        }
        let files = try section("FILES")
        for path in [
            "config.yaml", "okta.yaml", "tokens.json", "{state-dir}/idx/", "{state-dir}/activations/", "custom-registrations/",
            "keys/KID.json",
        ] {
            #expect(files.contains(path), "FILES lacks \(path)")
        }
        // What is too long for a command's --help is in its page (scripts/manual/details/PAGE.txt), and only a page has details.
        let details = Fixtures.packageRoot.appendingPathComponent("scripts/manual/details", isDirectory: true)
        let pages = try Self.pageNames
        for file in try FileManager.default.contentsOfDirectory(atPath: details.path) {
            let page = String(file.dropLast(".txt".count)) + ".1"
            #expect(file.hasSuffix(".txt") && pages.contains(page), "scripts/manual/details/\(file) belongs to no page")
        }
        // The long explanations are in the guides, which the pages name.
        #expect(try Self.page(["login-pkce"]).contains("docs/logging-in.md"))
        #expect(try Self.page(["sandbox"]).contains("docs/sandbox.md"))
        // The help's examples stay literal, their continuation lines included.
        #expect(
            try Self.page(["register"]).contains(
                ".Bd -literal -offset 6n\n$ uid=$(idflow register --email jo@example.com --first-name Jo \\e\n"))
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

    /// Every environment variable the sources read is described under ENVIRONMENT or, for a setting's, with its
    /// option under CONFIGURATION OPTIONS.
    @Test func theManPageDescribesEveryEnvironmentVariableRead() async throws {
        let environment = try section("ENVIRONMENT") + "\n" + section("CONFIGURATION OPTIONS")
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
                environment.contains(".It Ev \(name)\n") || environment.contains("Ev \(name) ,") || environment.contains("Ev \(name)\n")
                    || environment.contains("Ev \(name) .\n"),
                "ENVIRONMENT and CONFIGURATION OPTIONS lack \(name)")
        }
    }

    /// Issue 40: man/ holds only what `man` reads (the generator's inputs are in scripts/manual/), and is at most a
    /// third of the 166 KB it was: 55,000 bytes as `du -sb man` counts, so the pages' 50,904 once the folder's own
    /// 4,096 are taken off. The commands' own help is most of it; what gen-man.sh adds is written once (configuration
    /// and shared options, exit status in idflow.1), so a longer help is what can make this fail.
    @Test func theManualStaysSmall() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.manualFolder.path)
        #expect(try names.sorted() == Self.pageNames, "man/ holds something that is not a page")
        var total = 0
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: Self.manualFolder.appendingPathComponent(name).path)
            total += (attributes[.size] as? Int) ?? 0
        }
        #expect(total <= 50_904, "man/'s pages are \(total) bytes; `du -sb man` must be at most 55,000")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
    func groffRendersEveryManPageWithoutAWarning() async throws {
        for name in try Self.pageNames {
            let groff = try await ExternalCommand.run(
                "/usr/bin/groff", ["-ww", "-z", "-mandoc", "-Tutf8", Self.manualFolder.appendingPathComponent(name).path])
            #expect(groff.status == 0)
            #expect(groff.standardError.isEmpty, "groff on man/\(name): \(groff.standardError)")
        }
    }

    /// mandoc's checker finds no mistake and nothing it warns about (its style remarks, such as lines longer
    /// than 80 bytes or pages it cannot find installed, are left).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc")))
    func mandocFindsNoWarningInAnyManPage() async throws {
        for name in try Self.pageNames {
            let mandoc = try await ExternalCommand.run(
                "/usr/bin/mandoc", ["-T", "lint", "-W", "warning", Self.manualFolder.appendingPathComponent(name).path])
            #expect(mandoc.status == 0, "mandoc on man/\(name): \(mandoc.output)\(mandoc.standardError)")
        }
    }
}
