import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// Registration through a custom identity provider of the Token Server (`register --idp`).
struct CustomRegistrationOptions: ParsableArguments {
    @Option(
        name: .customLong("idp"),
        help: ArgumentHelp("Register through this custom identity provider.", valueName: "idp"))
    var identityProvider: String?

    @Option(
        name: .customLong("init-data"),
        help: ArgumentHelp(
            "The init step's data: text, @FILE or - (two-step).", valueName: "data"))
    var initData: String?

    @Option(
        help: ArgumentHelp(
            "The complete step's data: text, @FILE or - (stdin).", valueName: "data"))
    var data: String?

    @Flag(name: .customLong("data-stdin"), help: "Read the complete step's data from stdin.")
    var dataStdin = false

    @Option(
        name: .customLong("transaction-id"),
        help: ArgumentHelp("Continue a registration stopped by exit 10.", valueName: "id"))
    var transactionID: String?

    @Flag(help: "With --transaction-id: forget that registration.")
    var cancel = false

    @Option(
        name: .customLong("token-server"),
        help: ArgumentHelp(
            "The Token Server's URL (env IDFLOW_TOKEN_SERVER).", valueName: "url"))
    var tokenServer: String?

    /// The flags given other than --idp, in the order of the help.
    var given: [String] {
        [
            ("--init-data", initData != nil), ("--data", data != nil), ("--data-stdin", dataStdin),
            ("--transaction-id", transactionID != nil), ("--cancel", cancel), ("--token-server", tokenServer != nil),
        ].filter(\.1).map(\.0)
    }

    /// The combinations a registration through `identityProvider` rules out.
    func validate(for identityProvider: String) throws {
        if identityProvider.isEmpty { throw ValidationError("--idp needs an identity provider id") }
        if dataStdin && data != nil { throw ValidationError("give --data or --data-stdin, not both") }
        if initData == "-" && (data == "-" || dataStdin) { throw ValidationError("only one of --init-data and --data can come from stdin") }
        if transactionID != nil && initData != nil {
            throw ValidationError("--init-data cannot be used with --transaction-id: the transaction is past its init step")
        }
        if cancel {
            guard transactionID != nil else { throw ValidationError("--cancel needs --transaction-id") }
            if initData != nil || data != nil || dataStdin { throw ValidationError("--cancel takes no data") }
        }
    }

    /// Runs what the flags ask for: forget a kept registration (`--cancel`), or register (or continue one).
    func run(_ identityProvider: String, clientSecret: ClientSecretOption, _ global: GlobalOptions) async throws {
        if cancel, let transactionID {
            try await CommandRunner.run(global) { context throws(IdFlowError) in
                try await CancelRegistration(identityProvider: identityProvider, transactionID: transactionID).run(context)
            }
            return
        }
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let flow = RegisterWithIdentityProvider(
                identityProvider: identityProvider, initData: initData.map(RegistrationData.init(argument:)),
                data: dataStdin ? .standardInput : data.map(RegistrationData.init(argument:)), transactionID: transactionID,
                tokenServer: try tokenServer.map { text throws(IdFlowError) in
                    try ConfigurationResolver.parseBaseURL(text, setting: "token server")
                },
                clientSecret: try clientSecret.secret(context))
            return try await flow.run(context)
        }
    }
}
