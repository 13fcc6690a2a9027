import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the shell completion script (bash, zsh, fish).",
        discussion: """
            Completes subcommands, flags, files, profile names, kept enrollment ids and stopped sign-ins, from \
            local files only.

              $ source <(idflow completion bash)
              $ idflow completion zsh > "${fpath[1]}/_idflow"
            """)

    @Argument(
        help: ArgumentHelp("bash, zsh or fish; default: the shell named by $SHELL.", valueName: "shell"),
        completion: .list(["bash", "zsh", "fish"]))
    var shell: String?

    func validate() throws {
        if let shell, CompletionShell(rawValue: shell) == nil {
            throw ValidationError("unknown shell \"\(shell)\": choose bash, zsh or fish")
        }
    }

    func run() throws {
        guard let shell = shell.flatMap(CompletionShell.init(rawValue:)) ?? CompletionShell.autodetected() else {
            throw ValidationError("cannot tell the shell from $SHELL: name it, e.g. `idflow completion bash`")
        }
        CommandRunner.environment.console.standardOutput(Data((CompletionScript.text(for: shell) + "\n").utf8))
    }
}
