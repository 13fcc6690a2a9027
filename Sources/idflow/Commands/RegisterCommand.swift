import ArgumentParser
import Foundation
import IdFlowCore

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract:
            "Create a user with no password (STAGED), many from a file (--batch), register one through a custom identity provider (--idp), or sign up through the Identity Engine (--embedded).",
        discussion: """
            With --email: sends POST /api/v1/users?activate=false with the profile and prints the user object as the \
            server returns it. Needs the org URL and a management API token.

              $ uid=$(idflow register --email jo@example.com --first-name Jo --last-name Doe | jq -r .id)

            A login that already exists gives the server's E0000001 error with its cause (exit 3).

            With --idp: custom registration at the Token Server (POST /oauth/custom-registration/{idp}/init and \
            /complete, HTTP Basic with --client-id and the client secret). --init-data makes it two-step. The \
            complete step issues the tokens, which are validated like login-pkce's and saved for the profile; \
            prints {"status","identityProvider","data","tokens"}.

              $ idflow register --idp invite-code --data K7Q2 --client-secret-file secret | jq -r .tokens.access_token

            A recoverable status (4000-4999) exits 10 with {"status","step","transactionId","data","identityProvider"} \
            on stdout; continue with --transaction-id and other --data. At a terminal idflow asks again instead. \
            An unrecoverable status (5000-5999, or any other) exits 11 and the transaction is dropped.

            With --batch, one user per input line, NDJSON results in input order, a summary on stderr:

              $ idflow register --batch users.ndjson --activate --concurrency 8 > results.ndjson

            With --embedded: self-service sign-up through the Okta Identity Engine (select-enroll-profile, \
            enroll-profile, then the authenticators the policy enrolls: the password, an e-mailed code), answered \
            with --answer, at prompts, or stopped and resumed (--resume) as login-pkce --embedded is; the new \
            user is signed in and the output is login-pkce's (--no-store: nothing saved). A policy without \
            sign-up exits 3.

              $ idflow register --embedded --answer userProfile.email=new@example.com --answer userProfile.firstName=New --answer userProfile.lastName=User --answer credentials.passcode=@- <<<"$PW"
            """)

    @Option(help: ArgumentHelp("The user's e-mail address; also the login unless --login is given.", valueName: "email"))
    var email: String?

    @Option(name: .customLong("first-name"), help: ArgumentHelp("The user's first name.", valueName: "name"))
    var firstName: String?

    @Option(name: .customLong("last-name"), help: ArgumentHelp("The user's last name.", valueName: "name"))
    var lastName: String?

    @Option(help: ArgumentHelp("The login (Okta requires e-mail form); default: the e-mail address.", valueName: "login"))
    var login: String?

    @Option(
        name: .customLong("attr"),
        help: ArgumentHelp(
            "An extra profile attribute as key=value (repeatable), e.g. --attr mobilePhone=+1-555-0100. Values are sent as strings.",
            valueName: "key=value"))
    var attributes: [String] = []

    @Option(
        name: .customLong("idp"),
        help: ArgumentHelp("Register through this custom identity provider of the Token Server instead of --email.", valueName: "idp"))
    var identityProvider: String?

    @Option(
        name: .customLong("init-data"),
        help: ArgumentHelp(
            "The init step's data: the text, @FILE, or - for stdin. Makes the registration two-step.", valueName: "data"))
    var initData: String?

    @Option(
        help: ArgumentHelp(
            "The complete step's data: the text, @FILE, or - for stdin (read after init has answered).", valueName: "data"))
    var data: String?

    @Flag(name: .customLong("data-stdin"), help: "Read the complete step's data from stdin (same as --data -).")
    var dataStdin = false

    @Option(
        name: .customLong("transaction-id"),
        help: ArgumentHelp("Continue the registration that a recoverable status (exit 10) stopped.", valueName: "id"))
    var transactionID: String?

    @Flag(help: "With --transaction-id: forget that registration (exit 0).")
    var cancel = false

    @Option(
        name: .customLong("token-server"),
        help: ArgumentHelp(
            "The Token Server's base URL; default the org URL (env IDFLOW_TOKEN_SERVER, profile tokenServer).", valueName: "url"))
    var tokenServer: String?

    @Flag(help: "Sign up through the Okta Identity Engine's forms (interaction code flow), answered with --answer.")
    var embedded = false

    @OptionGroup var answers: AnswerOptions

    @Flag(name: .customLong("no-store"), help: "With --embedded: print the new user's tokens without saving them.")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: "Batch Options") var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if embedded {
            try validateEmbedded()
            return
        }
        if answers.given { throw ValidationError("--answer, --resume and --remediation work with --embedded only") }
        if noStore { throw ValidationError("--no-store works with --embedded only") }
        let customOptions: [(String, Bool)] = [
            ("--init-data", initData != nil), ("--data", data != nil), ("--data-stdin", dataStdin),
            ("--transaction-id", transactionID != nil),
            ("--cancel", cancel), ("--token-server", tokenServer != nil),
        ]
        guard let identityProvider else {
            if let used = customOptions.first(where: \.1) { throw ValidationError("\(used.0) needs --idp") }
            try validateDirectory()
            return
        }
        if batch.file != nil { throw ValidationError("--batch cannot be used with --idp") }
        let profileOptions: [(String, Bool)] = [
            ("--email", email != nil), ("--first-name", firstName != nil), ("--last-name", lastName != nil), ("--login", login != nil),
            ("--attr", !attributes.isEmpty),
        ]
        if let used = profileOptions.first(where: \.1) {
            throw ValidationError("\(used.0) cannot be used with --idp: the identity provider's script creates the user")
        }
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

    /// The sign-up form: the profile and password come as --answer, so no other form's options apply.
    private func validateEmbedded() throws {
        let others: [(String, Bool)] = [
            ("--email", email != nil), ("--first-name", firstName != nil), ("--last-name", lastName != nil), ("--login", login != nil),
            ("--attr", !attributes.isEmpty), ("--idp", identityProvider != nil), ("--batch", batch.file != nil),
            ("--init-data", initData != nil), ("--data", data != nil), ("--data-stdin", dataStdin),
            ("--transaction-id", transactionID != nil), ("--cancel", cancel), ("--token-server", tokenServer != nil),
        ]
        if let used = others.first(where: \.1) {
            throw ValidationError(
                "\(used.0) cannot be used with --embedded: give the profile and password as --answer userProfile.email=..., "
                    + "--answer credentials.passcode=@-")
        }
        if let flag = batch.givenWithoutBatch.first { throw ValidationError("\(flag) works with --batch only") }
    }

    /// The Users API forms: one user from the flags, or many from `--batch`.
    private func validateDirectory() throws {
        if batch.file != nil {
            guard email == nil, firstName == nil, lastName == nil, login == nil, attributes.isEmpty else {
                throw ValidationError(
                    "--batch reads every user from its input: leave out --email, --first-name, --last-name, --login and --attr")
            }
        } else if let flag = batch.givenWithoutBatch.first {
            throw ValidationError("\(flag) works with --batch only")
        } else if email == nil {
            throw ValidationError(
                "give --email for one user, --batch FILE for many, --idp IDP for custom registration, or --embedded to sign up")
        }
    }

    func run() async throws {
        if embedded {
            try await CommandRunner.run(global) { context throws(IdFlowError) in
                try await answers.login(context, clientSecret: clientSecret, store: !noStore, signUp: true).run(context)
            }
            return
        }
        if let identityProvider {
            try await registerCustom(identityProvider)
            return
        }
        if batch.file != nil {
            try await CommandRunner.environment.withInterruption { interruption in
                try await CommandRunner.stream(global) { context, emit throws(IdFlowError) in
                    try await batch.flow(interruption: interruption).run(context, emit: emit).exitStatus
                }
            }
            return
        }
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let flow = RegisterUser(
                email: email ?? "", firstName: firstName, lastName: lastName, login: login,
                attributes: try RegisterUser.parseAttributes(attributes))
            return try await flow.run(context)
        }
    }

    private func registerCustom(_ identityProvider: String) async throws {
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
