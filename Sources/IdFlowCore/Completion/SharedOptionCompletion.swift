import Foundation

/// Puts options that many commands share into ArgumentParser's completion scripts once, instead of once per command.
///
/// idflow's configuration options are accepted by nearly every command but hidden from each command's help, and
/// ArgumentParser completes no hidden option. So the script of the command tree (`script`) lacks them, and the
/// script ArgumentParser writes for a root command that has only them, visible (`options`), has them once. From
/// that one, each shell gets a shared definition, and the function (bash, zsh) or the parsing (fish) of each
/// command in `commands` (paths below the root: `["token", "get"]`) refers to it:
/// - bash: the arrays `__idflow_configuration_flags` and `__idflow_configuration_options`, added to each command's
///   own before it parses the words, and the function `__idflow_configuration_values PATH…` that completes their
///   values;
/// - zsh: the array `__idflow_configuration_arg_specs`, part of each command's `_arguments` specs;
/// - fish: the list `__idflow_configuration_specs`, part of each command's parsing, and one `complete` line per
///   option, offered when the command being completed is one of `__idflow_configured_commands`.
///
/// A custom completion (`--profile`'s names) names a command: bash passes the one being completed; zsh and fish
/// name the first of `commands`, whose option gives the same candidates. Text that ArgumentParser no longer writes
/// as expected is left as it is (and the completion tests fail).
public enum SharedOptionCompletion {
    static let tool = "idflow"
    static let note =
        "(added by idflow: they are hidden from each command's help, and ArgumentParser completes no hidden option)"

    // MARK: bash

    public static func bash(_ script: String, options: String, commands: [[String]]) -> String {
        let root = lines(of: "_\(tool)() {", in: options)
        guard let flags = arrayItems("non_repeating_flags", in: root), let values = arrayItems("non_repeating_options", in: root),
            let caseStart = root.firstIndex(of: "    case \"${prev}\" in"),
            let caseEnd = root[caseStart...].firstIndex(of: "    esac")
        else { return script }
        let shared = flags.filter { $0 != "-h" && $0 != "--help" && $0 != "--version" }
        let valueCases = root[caseStart...caseEnd].map {
            $0.replacingOccurrences(of: "---completion -- ", with: "---completion \"${@}\" -- ")
                .replacingOccurrences(of: #"^(\s*)return$"#, with: "$1return 0", options: .regularExpression)
        }
        let definition =
            [
                "# The configuration options of every command whose function calls __\(tool)_configuration_values",
                "# \(note).",
                "__\(tool)_configuration_flags=(\(shared.joined(separator: " ")))",
                "__\(tool)_configuration_options=(\(values.joined(separator: " ")))",
                "",
                "# Completes the value of a configuration option; the arguments are the command's path, for ---completion.",
                "__\(tool)_configuration_values() {",
            ] + valueCases + ["    return 1", "}", "", ""]
        var result = inserting(definition.joined(separator: "\n"), before: "_\(tool)() {\n", in: script)
        for path in commands {
            let function = "_" + ([tool] + path).joined(separator: "_") + "() {\n"
            let quoted = path.map { "'\($0)'" }.joined(separator: " ")
            result = editing(function: function, in: result) { body in
                guard let offer = body.firstIndex(where: { $0.hasPrefix("    __\(tool)_offer_flags_options ") }) else { return body }
                var body = body
                body.insert("    __\(tool)_configuration_values \(quoted) && return", at: offer + 1)
                body.insert(
                    contentsOf: [
                        "    non_repeating_flags+=(\"${__\(tool)_configuration_flags[@]}\")",
                        "    non_repeating_options+=(\"${__\(tool)_configuration_options[@]}\")",
                    ], at: offer)
                return body
            }
        }
        return result
    }

    /// The words of `    [local -a ]name=(…)` in `lines`.
    static func arrayItems(_ name: String, in lines: [String]) -> [String]? {
        for line in lines {
            let trimmed = line.trimmingPrefix(while: { $0 == " " })
            for prefix in ["\(name)=(", "local -a \(name)=("] where trimmed.hasPrefix(prefix) && trimmed.hasSuffix(")") {
                return trimmed.dropFirst(prefix.count).dropLast().split(separator: " ").map(String.init)
            }
        }
        return nil
    }

    // MARK: zsh

    public static func zsh(_ script: String, options: String, commands: [[String]]) -> String {
        let root = lines(of: "_\(tool)() {", in: options)
        guard let first = commands.first, let start = root.firstIndex(of: "    local -ar arg_specs=("),
            let end = root[start...].firstIndex(of: "    )")
        else { return script }
        let specs = root[(start + 1)..<end].filter {
            !$0.contains("{-h,--help}") && !$0.contains("'--version[") && !$0.contains(":->command'") && !$0.contains(":->arg'")
        }.map { $0.replacingOccurrences(of: "---completion -- ", with: "---completion \(first.joined(separator: " ")) -- ") }
        let definition =
            [
                "# The configuration options of every command whose arg_specs name this array",
                "# \(note).",
                "typeset -ga __\(tool)_configuration_arg_specs=(",
            ] + specs.map { String($0.dropFirst(4)) } + [")", "", ""]
        var result = inserting(definition.joined(separator: "\n"), before: "_\(tool)() {\n", in: script)
        for path in commands {
            let function = "_" + ([tool] + path).joined(separator: "_") + "() {\n"
            result = editing(function: function, in: result) { body in
                guard let specs = body.firstIndex(of: "    local -ar arg_specs=(") else { return body }
                var body = body
                body.insert("        \"${__\(tool)_configuration_arg_specs[@]}\"", at: specs + 1)
                return body
            }
        }
        return result
    }

    // MARK: fish

    public static func fish(_ script: String, options: String, commands: [[String]]) -> String {
        let optionLines = options.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rootCondition = "-n '__\(tool)_should_offer_completions_for_flags_or_options \"\(tool)\" "
        guard let first = commands.first,
            let parse = optionLines.first(where: { $0.hasPrefix("        __\(tool)_parse_subcommand 0 ") })
        else { return script }
        let specs = parse.split(separator: " ").dropFirst(2).filter { $0 != "'h/help'" && $0 != "'version'" }
        let completions = optionLines.filter { $0.hasPrefix("complete -c '\(tool)' \(rootCondition)") && !$0.contains(" h help' ") }
            .map {
                $0.replacingOccurrences(of: rootCondition, with: "-n '__\(tool)_should_offer_configuration_options ")
                    .replacingOccurrences(of: "---completion -- ", with: "---completion \(first.joined(separator: " ")) -- ")
            }
        let definition = [
            "# The configuration options of the commands named here",
            "# \(note).",
            "set -g __\(tool)_configured_commands "
                + commands.map { "'" + ([tool] + $0).joined(separator: " ") + "'" }.joined(separator: " "),
            "set -g __\(tool)_configuration_specs " + specs.joined(separator: " "),
            "",
            "function __\(tool)_should_offer_configuration_options",
            "    set -l non_repeating_flags_or_options $argv",
            "    set -l non_repeating_flags_or_options_absent 0",
            "    set -l positional_index 0",
            "    set -l commands",
            "    __\(tool)_parse_tokens",
            "    contains -- \"$commands\" $__\(tool)_configured_commands; and return $non_repeating_flags_or_options_absent",
            "    return 1",
            "end",
            "",
            "",
        ]
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The parsing of each command's words (`case 'name'` nested by four spaces a level) learns the options.
        var path: [String] = []
        let configured = Set(commands.map { ([tool] + $0).joined(separator: " ") })
        var inParse = false
        for index in lines.indices {
            let line = lines[index]
            if line.hasPrefix("function ") { inParse = line.hasPrefix("function __\(tool)_parse_tokens") }
            guard inParse else { continue }
            let indent = line.prefix(while: { $0 == " " }).count
            let text = line.dropFirst(indent)
            if text.hasPrefix("case '"), text.hasSuffix("'") {
                path = Array(path.prefix(indent / 4 - 1)) + [String(text.dropFirst(6).dropLast())]
            } else if text.hasPrefix("__\(tool)_parse_subcommand "), path.count == indent / 4 - 1,
                configured.contains(path.joined(separator: " "))
            {
                lines[index] += " $__\(tool)_configuration_specs"
            }
        }
        guard let firstFunction = lines.firstIndex(where: { $0.hasPrefix("function ") }) else { return script }
        lines.insert(contentsOf: definition, at: firstFunction)
        // The generated script ends without a newline; the completions go after its last line.
        return (lines + completions).joined(separator: "\n")
    }

    // MARK: text

    /// The lines of the function that starts with the line `start`, up to its closing `}`.
    static func lines(of start: String, in script: String) -> [String] {
        let all = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = all.firstIndex(of: start.trimmingSuffix("\n")), let last = all[first...].firstIndex(of: "}") else { return [] }
        return Array(all[first...last])
    }

    static func inserting(_ text: String, before marker: String, in script: String) -> String {
        guard let range = script.range(of: "\n" + marker) else { return script }
        var result = script
        result.insert(contentsOf: text, at: script.index(after: range.lowerBound))
        return result
    }

    /// `script` with the body of `function` (its lines up to the closing `}`) replaced by `edit`'s.
    static func editing(function: String, in script: String, _ edit: ([String]) -> [String]) -> String {
        guard let start = script.range(of: "\n" + function), let end = script.range(of: "\n}\n", range: start.upperBound..<script.endIndex)
        else { return script }
        let body = script[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return script.replacingCharacters(in: start.upperBound..<end.lowerBound, with: edit(body).joined(separator: "\n"))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
