extension SecretSource {
    /// The one source the user gave for a secret, from the usual trio of options (`--X-stdin`, `--X-file`,
    /// `--X`) and its environment variable. Giving two is refused rather than guessed at; argv is last, and
    /// `SecretReader` warns about it.
    public static func choose(
        what: String, stdin: Bool, file: String?, argument: String?, environmentVariable: String, environment: [String: String]
    ) throws(IdFlowError) -> SecretSource {
        let given = [stdin, file != nil, argument != nil].filter { $0 }.count
        guard given <= 1 else {
            throw .invalidInput("give the \(what) one way only", hint: "use one of the -stdin, -file or direct options")
        }
        if stdin { return .standardInput }
        if let file { return .file(file) }
        if let argument { return .argument(argument) }
        if let value = environment[environmentVariable], !value.isEmpty { return .environment(environmentVariable) }
        throw .invalidInput(
            "no \(what) given", hint: "pipe it with the -stdin option, name a file with the -file option, or export \(environmentVariable)")
    }
}

extension IdFlowContext {
    /// A secret from the one source the user gave (`SecretSource.choose`); with none given at a terminal, typed at a
    /// hidden prompt, as gh and step ask, so a person need not pipe a password into idflow. `confirming` asks twice
    /// (a password being chosen, where a typo would lock the user out). A script with none given is told the options,
    /// as before.
    public func readSecret(
        _ what: String, stdin: Bool, file: String?, argument: String?, environmentVariable: String, confirming: Bool = false
    ) throws(IdFlowError) -> Secret {
        let nothingGiven = !stdin && file == nil && argument == nil && (secrets.environment[environmentVariable] ?? "").isEmpty
        guard nothingGiven, console.isInteractive else {
            let source = try SecretSource.choose(
                what: what, stdin: stdin, file: file, argument: argument, environmentVariable: environmentVariable,
                environment: secrets.environment)
            return try secrets.read(what, from: source)
        }
        let label = what.prefix(1).uppercased() + what.dropFirst()
        let typed = try PromptInterruption.run { console.promptSecret("\(label): ") } ?? ""
        guard !typed.isEmpty else {
            throw .invalidInput("no \(what) was typed", hint: "type it at the prompt, or give it with the -stdin or -file option")
        }
        if confirming {
            let again = try PromptInterruption.run { console.promptSecret("\(label) again: ") } ?? ""
            guard again == typed else { throw .invalidInput("the two \(what)s typed differ", hint: "run the command again") }
        }
        return Secret(typed)
    }
}
