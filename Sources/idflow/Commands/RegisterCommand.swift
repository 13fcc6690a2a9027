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
            """)

    @Option(help: ArgumentHelp("The user's e-mail address; also the login unless --login is given.", valueName: "email"))
    var email: String

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

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            let flow = RegisterUser(
                email: email, firstName: firstName, lastName: lastName, login: login,
                attributes: try RegisterUser.parseAttributes(attributes))
            return try await flow.run(context)
        }
    }
}
