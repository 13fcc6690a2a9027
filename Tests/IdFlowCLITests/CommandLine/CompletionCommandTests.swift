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
        #expect(groups.contains { $0.path == "token" && $0.names == ["get", "inspect", "verify", "introspect", "revoke", "exchange"] })
        #expect(groups.contains { $0.path == "enroll" && $0.names == ["create", "list", "update", "delete"] })
    }

    /// The configuration options are hidden from each command's help, so ArgumentParser leaves them out of the
    /// scripts; they come back once per script, and every command that takes them refers to that one definition.
    @Test func theConfigurationOptionsAreCompletedOnceForEveryCommandThatTakesThem() {
        let commands = CompletionScript.configuredCommands(IdFlow.self)
        #expect(commands.count >= 25)
        #expect(commands.contains(["token", "get"]) && commands.contains(["user", "get"]) && commands.contains(["doctor"]))
        #expect(!commands.contains(["completion"]) && !commands.contains(["sandbox"]) && !commands.contains(["token"]))
        func count(_ text: String, in script: String) -> Int { script.components(separatedBy: text).count - 1 }

        let bash = CompletionScript.text(for: .bash)
        #expect(count("__idflow_configuration_values() {", in: bash) == 1)
        #expect(count("'--org-url')", in: bash) == 1)
        for path in commands {
            let call = "    __idflow_configuration_values \(path.map { "'\($0)'" }.joined(separator: " ")) && return\n"
            #expect(bash.contains(call), "bash: \(path)")
        }
        #expect(count("non_repeating_options+=(\"${__idflow_configuration_options[@]}\")", in: bash) == commands.count)

        let zsh = CompletionScript.text(for: .zsh)
        #expect(count("typeset -ga __idflow_configuration_arg_specs=(", in: zsh) == 1)
        #expect(count("'--org-url[", in: zsh) == 1)
        #expect(count("        \"${__idflow_configuration_arg_specs[@]}\"\n", in: zsh) == commands.count)

        let fish = CompletionScript.text(for: .fish)
        #expect(count(" $__idflow_configuration_specs", in: fish) == commands.count)
        #expect(count("-l 'org-url'", in: fish) == 1)
        for path in commands { #expect(fish.contains("'\((["idflow"] + path).joined(separator: " "))'"), "fish: \(path)") }
    }
}
