import ArgumentParser
import IdFlowCore

/// The shell completion scripts `idflow completion SHELL` prints (and `--generate-completion-script`, routed
/// to it): ArgumentParser's, plus the subcommand names after `idflow help`, for which ArgumentParser's
/// built-in `help` command offers nothing. `scripts/gen-completions.sh` writes them to `completions/`.
///
/// The configuration options (`GlobalOptions`) are hidden from each command's help, and ArgumentParser completes
/// no hidden option; `SharedOptionCompletion` adds them back once per script (a shared array or function that the
/// function of every command taking them refers to) from the script ArgumentParser writes for a command that has
/// only them (`ConfigurationOptionsCommand`).
enum CompletionScript {
    static func text(for shell: CompletionShell, root: any ParsableCommand.Type = IdFlow.self) -> String {
        let script = withConfigurationOptions(root.completionScript(for: shell), shell: shell, root: root)
        let groups = commandGroups(root)
        switch shell {
        case .bash: return bashWithHelp(script, groups: groups)
        case .zsh: return zshWithHelp(script, groups: groups)
        case .fish: return fishWithHelp(script, groups: groups)
        default: return script
        }
    }

    /// A command with nothing but the configuration options, visible, named as the root so that ArgumentParser's
    /// script for it reads like the real one's.
    struct ConfigurationOptionsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "idflow")
        @OptionGroup var global: GlobalOptions
    }

    private static func withConfigurationOptions(_ script: String, shell: CompletionShell, root: any ParsableCommand.Type) -> String {
        let commands = configuredCommands(root)
        let options = ConfigurationOptionsCommand.completionScript(for: shell)
        switch shell {
        case .bash: return SharedOptionCompletion.bash(script, options: options, commands: commands)
        case .zsh: return SharedOptionCompletion.zsh(script, options: options, commands: commands)
        case .fish: return SharedOptionCompletion.fish(script, options: options, commands: commands)
        default: return script
        }
    }

    /// The paths below the root of the commands that take the configuration options.
    static func configuredCommands(_ root: any ParsableCommand.Type) -> [[String]] {
        var paths: [[String]] = []
        func walk(_ command: any ParsableCommand.Type, _ path: [String]) {
            if !path.isEmpty, Mirror(reflecting: command.init()).children.contains(where: { $0.value is OptionGroup<GlobalOptions> }) {
                paths.append(path)
            }
            for subcommand in command.configuration.subcommands { walk(subcommand, path + [name(subcommand)]) }
        }
        walk(root, [])
        return paths
    }

    /// `--generate-completion-script[=]SHELL` as the root's first argument becomes `completion SHELL`, so both
    /// print the same script.
    static func routed(_ arguments: [String]) -> [String] {
        let flag = "--generate-completion-script"
        guard let first = arguments.first else { return arguments }
        if first == flag { return ["completion"] + arguments.dropFirst().prefix(1) }
        if first.hasPrefix(flag + "=") { return ["completion", String(first.dropFirst(flag.count + 1))] }
        return arguments
    }

    /// Every command that has subcommands, by its path below the root ("" for the root itself), with the
    /// names of its subcommands.
    static func commandGroups(_ root: any ParsableCommand.Type) -> [(path: String, names: [String])] {
        var groups: [(path: String, names: [String])] = []
        func walk(_ command: any ParsableCommand.Type, _ path: [String]) {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return }
            groups.append((path.joined(separator: " "), subcommands.map(name)))
            for subcommand in subcommands { walk(subcommand, path + [name(subcommand)]) }
        }
        walk(root, [])
        return groups
    }

    private static func name(_ command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }

    /// Adds the names to the end of the generated `_idflow_help` function; the words after `help` (from
    /// `COMP_WORDS[2]`) pick the group.
    private static func bashWithHelp(_ script: String, groups: [(path: String, names: [String])]) -> String {
        let cases = groups.map { group in
            """
                '\(group.path)')
                    COMPREPLY+=($(compgen -W '\(group.names.joined(separator: " "))' -- "${cur}"))
                    ;;

            """
        }.joined()
        let addition = """
                # The subcommand names (added by idflow: the help command of ArgumentParser completes none).
                case "${COMP_WORDS[*]:2:COMP_CWORD-2}" in
            \(cases)    esac

            """
        return inserting(addition, into: script, function: "_idflow_help() {\n", end: "}\n")
    }

    private static func zshWithHelp(_ script: String, groups: [(path: String, names: [String])]) -> String {
        let cases = groups.map { group in
            """
                '\(group.path)')
                    compadd -- \(group.names.joined(separator: " "))
                    ;;

            """
        }.joined()
        let function = """
            __idflow_help_subcommands() {
                # The subcommand names (added by idflow: the help command of ArgumentParser completes none).
                case "${words[2,CURRENT-1]}" in
            \(cases)    esac
            }


            """
        let patched = script.replacingOccurrences(of: "'*:subcommands:'\n", with: "'*:subcommands:__idflow_help_subcommands'\n")
        return inserting(function, into: patched, before: "_idflow_help() {\n")
    }

    private static func fishWithHelp(_ script: String, groups: [(path: String, names: [String])]) -> String {
        let lines = groups.map { group in
            let words = group.path.split(separator: " ")
            let position = words.count + 1
            let after = words.last.map { "; and test (commandline -opc)[-1] = \($0)" } ?? ""
            return "complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional \"idflow help\" -eq \(position)\(after)' "
                + "-fa '\(group.names.joined(separator: " "))'"
        }
        // The generated script ends without a newline (it is printed with one).
        let comment = "# The subcommand names after `idflow help` (added by idflow: the help command of ArgumentParser completes none)."
        return ([script.hasSuffix("\n") ? String(script.dropLast()) : script, comment] + lines).joined(separator: "\n")
    }

    /// `script` with `addition` inserted just before the `end` line that closes `function`; unchanged when
    /// ArgumentParser no longer writes that function (the completion tests then fail).
    private static func inserting(_ addition: String, into script: String, function: String, end: String) -> String {
        guard let start = script.range(of: function), let close = script.range(of: "\n" + end, range: start.upperBound..<script.endIndex)
        else { return script }
        var result = script
        result.insert(contentsOf: addition, at: script.index(after: close.lowerBound))
        return result
    }

    private static func inserting(_ addition: String, into script: String, before marker: String) -> String {
        guard let start = script.range(of: marker) else { return script }
        var result = script
        result.insert(contentsOf: addition, at: start.lowerBound)
        return result
    }
}
