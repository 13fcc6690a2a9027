import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct WebSSOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-sso",
        abstract: "Print a link that signs a browser in to a web app.",
        usage: "idflow web-sso --client-id <id> [--redirect-uri <uri>] [--open]",
        discussion: """
            Native-to-Web SSO: the profile's access token (with interclient_access) and ID token buy a single-use \
            interclient token for the web app, and the /authorize link carrying it signs the browser in with no \
            password. Prints {"url", "authorize_url", "state", "expires_at"}. An ended session: exit 4, sign in again.

              $ idflow web-sso --client-id 0oaW... \\
                  --redirect-uri https://app.example.com/cb --open

            \(GlobalOptions.helpNote)
            """)

    @Flag(help: "Also open the link with $BROWSER or xdg-open.")
    var open = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            guard let clientID = global.clientID, !clientID.isEmpty else {
                throw IdFlowError.invalidInput("web-sso needs --client-id of the web app", hint: "pass --client-id ID")
            }
            return try await WebSSO(
                clientID: clientID, redirectURI: global.redirectURI,
                opener: open ? BrowserOpener(environment: context.secrets.environment) : nil
            ).run(context)
        }
    }
}
