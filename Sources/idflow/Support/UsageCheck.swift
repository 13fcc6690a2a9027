import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

/// Finds the mistake a person most likely made in a command line that ArgumentParser refused, so it is the
/// one reported: a mistyped command or option comes before what it caused (`register --emial x` would
/// otherwise say that no `--email` was given), each with the closest name it could have been.
///
/// It reads the command tree ArgumentParser describes (`_dumpHelp`), only after a parse has failed, so a
/// command line that parses pays nothing for it.
enum UsageCheck {
    struct Mistake: Equatable {
        var message: String
        var hint: String?
        /// The command the mistake was made in, below `idflow`, for the "See … --help" line.
        var commandPath: [String]
    }

    /// `idflow help TOPIC…` names commands that exist; ArgumentParser would print the top help and exit 0.
    static func helpTopicMistake(in arguments: [String], root: any ParsableCommand.Type) -> Mistake? {
        guard arguments.first == "help" else { return nil }
        var command = root
        var path: [String] = []
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            let names = command.configuration.subcommands.map { $0.name }
            guard let next = command.configuration.subcommands.first(where: { $0.name == word }) else {
                return unknownCommand(word, among: names, path: path)
            }
            command = next
            path.append(word)
        }
        return nil
    }

    /// The first unknown command, unknown option, or negative number given to an option, nil when the line
    /// has none of these (ArgumentParser's own message then stands).
    static func firstMistake(in arguments: [String], root: any ParsableCommand.Type) -> Mistake? {
        guard let tree = try? JSONDecoder().decode(ToolInfo.self, from: Data(root._dumpHelp().utf8)).command else { return nil }
        var command = tree
        var path: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex, let next = command.subcommands?.first(where: { $0.commandName == arguments[index] }) {
            command = next
            path.append(arguments[index])
            index += 1
        }
        if let subcommands = command.subcommands, !subcommands.isEmpty {
            if let name = command.defaultSubcommand, let chosen = subcommands.first(where: { $0.commandName == name }) {
                command = chosen
            } else if index < arguments.endIndex, !arguments[index].hasPrefix("-") {
                return unknownCommand(arguments[index], among: subcommands.map(\.commandName).filter { $0 != "help" }, path: path)
            }
        }
        return optionMistake(in: arguments[index...], command: command, path: path)
    }

    private static func optionMistake(in arguments: ArraySlice<String>, command: CommandInfo, path: [String]) -> Mistake? {
        var takesValue: [String: Bool] = ["--help": false, "-h": false, "--version": false]
        for argument in command.arguments ?? [] where argument.kind != "positional" {
            for name in argument.names ?? [] {
                takesValue[name.spelled] = argument.kind == "option"
            }
        }
        let longNames = takesValue.keys.filter { $0.hasPrefix("--") }.sorted()
        var valueOf: String?
        for argument in arguments {
            if argument == "--" { break }
            if let option = valueOf {
                valueOf = nil
                if argument.count > 1, argument.hasPrefix("-"), Double(argument) != nil {
                    return Mistake(
                        message: "\(option) takes a number of 0 or more, not \(argument)",
                        hint: "for example \(option) \(argument.dropFirst())", commandPath: path)
                }
                continue
            }
            guard argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil else { continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if let value = takesValue[name] {
                valueOf = value && !argument.contains("=") ? name : nil
                continue
            }
            // Short flags bundled together (`-vh`) are ArgumentParser's to judge.
            if !argument.hasPrefix("--"), argument.count > 2 { continue }
            let suggestion = Suggestion.closest(to: name, among: longNames)
            // The configuration options are hidden from --help (GlobalOptions): --help-hidden lists them.
            let help = suggestion.flatMap { GlobalOptions.names[$0] } != nil ? "--help-hidden" : "--help"
            return Mistake(
                message: "Unknown option '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""),
                hint: "`\((["idflow"] + path + [help]).joined(separator: " "))` lists the options",
                commandPath: path)
        }
        return nil
    }

    private static func unknownCommand(_ word: String, among names: [String], path: [String]) -> Mistake {
        let suggestion = Suggestion.closest(to: word, among: names)
        let parent = (["idflow"] + path).joined(separator: " ")
        return Mistake(
            message: "Unknown command '\(word)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""),
            hint: "the commands of `\(parent)` are: \(names.joined(separator: ", "))", commandPath: path)
    }

    /// The part of ArgumentParser's `--experimental-dump-help` document read here.
    private struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    fileprivate struct CommandInfo: Decodable {
        var commandName: String
        var subcommands: [CommandInfo]?
        var defaultSubcommand: String?
        var arguments: [ArgumentInfo]?
    }

    fileprivate struct ArgumentInfo: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String

            var spelled: String { kind == "short" ? "-\(name)" : kind == "longWithSingleDash" ? "-\(name)" : "--\(name)" }
        }
        var kind: String
        var names: [Name]?
    }
}

extension ParsableCommand {
    /// The name the command is called by on the command line.
    static var name: String {
        configuration.commandName ?? _commandName
    }
}
