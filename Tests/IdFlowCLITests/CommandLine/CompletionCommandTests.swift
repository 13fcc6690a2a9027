import ArgumentParser
import Testing

@testable import idflow

/// `idflow completion SHELL` prints the script to source, as gh and kubectl do.
@Suite struct CompletionCommandTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func printsTheScriptForTheShell(shell: String) async throws {
        let result = await CLI.run(["completion", shell])
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == CompletionScript.text(for: try #require(CompletionShell(rawValue: shell))) + "\n")
        // The completions idflow adds to ArgumentParser's: the names after `help`, the local candidates.
        #expect(result.stdout.contains("inspect verify introspect revoke"))
        #expect(result.stdout.contains("---completion"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func generateCompletionScriptPrintsTheSameScript(shell: String) async {
        let viaFlag = await CLI.run(["--generate-completion-script", shell])
        let viaEquals = await CLI.run(["--generate-completion-script=\(shell)"])
        let viaCommand = await CLI.run(["completion", shell])
        #expect(viaFlag.exitCode == 0)
        #expect(viaFlag.stdout == viaCommand.stdout)
        #expect(viaEquals.stdout == viaCommand.stdout)
    }

    @Test func anUnknownShellIsAUsageError() async {
        let result = await CLI.run(["completion", "tcsh"])
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("tcsh"))
        #expect(result.stderr.contains("bash, zsh or fish"))
    }

    @Test func theHelpCompletionNamesEverySubcommandOfEveryGroup() {
        let groups = CompletionScript.commandGroups(IdFlow.self)
        #expect(groups.first?.path == "")
        #expect(groups.first?.names.contains("sandbox") == true)
        #expect(groups.first?.names.contains("completion") == true)
        #expect(groups.contains { $0.path == "token" && $0.names == ["get", "inspect", "verify", "introspect", "revoke"] })
        #expect(groups.contains { $0.path == "enroll" && $0.names == ["create", "list", "update", "delete"] })
    }
}
