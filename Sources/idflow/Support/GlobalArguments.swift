import ArgumentParser

/// Lets the configuration flags come before the subcommand, as in git and kubectl:
/// `idflow -v --profile staging register …` is read as `idflow register -v --profile staging …`.
///
/// ArgumentParser gives each subcommand its own copy of `GlobalOptions` and knows nothing of flags placed
/// before the subcommand's name, so the leading ones are moved behind it before parsing.
enum GlobalArguments {
    /// Moves the global options that stand before the subcommand path to just after it. Arguments are left
    /// as they are when they name no runnable subcommand (`idflow -v`, `idflow --help`, completion requests),
    /// so ArgumentParser reports those itself.
    static func hoist(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var path: [String] = []
        var globals: [String] = []
        var command = root
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            // No subcommand's name starts with "-": `idflow --version` reads no subcommand's configuration.
            if !argument.hasPrefix("-"), let next = command.configuration.subcommands.first(where: { $0.name == argument }) {
                path.append(argument)
                command = next
                index += 1
            } else if let takesValue = GlobalOptions.takesValue(argument) {
                let width = takesValue && !argument.contains("=") ? 2 : 1
                guard index + width <= arguments.endIndex else { return arguments }
                globals += arguments[index..<index + width]
                index += width
            } else {
                break
            }
        }
        // A group with a default subcommand (`enroll`) runs it, so its flags may follow the group's name.
        guard !path.isEmpty, !globals.isEmpty, command.configuration.subcommands.isEmpty || command.configuration.defaultSubcommand != nil
        else { return arguments }
        return path + globals + arguments[index...]
    }
}
