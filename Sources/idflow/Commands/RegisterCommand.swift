import ArgumentParser
import IdFlowCore

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create a user with no password (STAGED), ready for `activate`.",
        discussion: """
            Sends POST /api/v1/users?activate=false with the profile and prints the user object as the server returns it. \
            Needs the org URL and a management API token.

              $ uid=$(idflow register --email jo@example.com --first-name Jo --last-name Doe | jq -r .id)

            A login that already exists gives the server's E0000001 error with its cause (exit 3).

            With --batch, one user per input line, NDJSON results in input order, a summary on stderr:

              $ idflow register --batch users.ndjson --activate --concurrency 8 > results.ndjson
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

    @OptionGroup(title: "Batch Options") var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if batch.file != nil {
            guard email == nil, firstName == nil, lastName == nil, login == nil, attributes.isEmpty else {
                throw ValidationError(
                    "--batch reads every user from its input: leave out --email, --first-name, --last-name, --login and --attr")
            }
        } else if let flag = batch.givenWithoutBatch.first {
            throw ValidationError("\(flag) works with --batch only")
        } else if email == nil {
            throw ValidationError("give --email for one user, or --batch FILE for many")
        }
    }

    func run() async throws {
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
}
