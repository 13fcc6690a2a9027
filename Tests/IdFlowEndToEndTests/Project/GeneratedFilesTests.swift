import Foundation
import IdFlowCore
import IdFlowTestSupport
import Testing

/// The committed completions and man page are what packagers ship; they must match the binary's command tree.
struct GeneratedFilesTests {
    @Test(arguments: [("bash", "idflow.bash"), ("zsh", "_idflow"), ("fish", "idflow.fish")])
    func completionScriptsMatchTheBinary(shell: String, file: String) async throws {
        let generated = try await IdFlowBinary.run(["--generate-completion-script", shell], environment: [:])
        #expect(generated.exitCode == 0)
        let committed = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        #expect(generated.stdout == committed, "completions/\(file) drifted: run scripts/gen-completions.sh")
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
        for code in ["64  usage error", "13  security check failed", "OKTA_CLIENT_ORGURL", "IDFLOW_STATE_DIR"] {
            #expect(manual.contains(code))
        }
    }
}
