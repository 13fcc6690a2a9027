import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// One user's profile for the Users API (`register --email`).
struct ProfileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The user's e-mail address (the login by default).", valueName: "email"))
    var email: String?

    @Option(name: .customLong("first-name"), help: ArgumentHelp("The user's first name.", valueName: "name"))
    var firstName: String?

    @Option(name: .customLong("last-name"), help: ArgumentHelp("The user's last name.", valueName: "name"))
    var lastName: String?

    @Option(help: ArgumentHelp("The login (e-mail form); default: the e-mail address.", valueName: "login"))
    var login: String?

    @Option(
        name: .customLong("attr"),
        help: ArgumentHelp(
            "An extra profile attribute, key=value; repeatable.",
            valueName: "key=value"))
    var attributes: [String] = []

    /// The flags given, in the order of the help, for the modes that take none of them.
    var given: [String] {
        [
            ("--email", email != nil), ("--first-name", firstName != nil), ("--last-name", lastName != nil), ("--login", login != nil),
            ("--attr", !attributes.isEmpty),
        ].filter(\.1).map(\.0)
    }

    /// The flow that creates the user these flags describe.
    func registration() throws(IdFlowError) -> RegisterUser {
        RegisterUser(
            email: email ?? "", firstName: firstName, lastName: lastName, login: login,
            attributes: try RegisterUser.parseAttributes(attributes))
    }
}
