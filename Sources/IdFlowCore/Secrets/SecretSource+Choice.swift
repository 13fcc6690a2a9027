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
