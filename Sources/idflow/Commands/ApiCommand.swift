import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct ApiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Call your API with the profile's access token.",
        usage: "idflow api <url> [<options>]",
        discussion: """
            Sends the request with the stored access token and prints the body: JSON as sent, another body only \
            with --raw; --include prints {"status","headers","body"}, on failure too. A token expiring within 60 s \
            is refreshed first, and a 401 gets one refresh and one retry. With nothing stored, no token is sent. A \
            401 naming RFC 9728 metadata whose authorization_servers lack the profile's issuer stops, naming the \
            issuer to log in to. Redirects are followed, the token only to the same origin.

            Exit codes by status: 401/403: 4, 404: 5, other 4xx: 3, 5xx: 7, network or TLS: 6.

              $ idflow api https://api.example.com/v1/me | jq .
              $ idflow api -X POST --data @order.json https://api.example.com/v1/orders

            \(GlobalOptions.helpNote)
            """)

    @Argument(help: ArgumentHelp("The API's full URL (https, or http on loopback).", valueName: "url"))
    var url: String

    @Option(
        name: [.customShort("X"), .customLong("method")],
        help: ArgumentHelp("The HTTP method; default GET, or POST with --data.", valueName: "method"))
    var method: String?

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A request header, `Name: value`; repeatable. Not Authorization or DPoP.", valueName: "header"))
    var headers: [String] = []

    @Option(
        help: ArgumentHelp(
            "The body: JSON, @FILE, or @- for stdin (application/json unless -H Content-Type says otherwise).",
            valueName: "body"),
        completion: .file())
    var data: String?

    @Flag(name: .shortAndLong, help: "Print {\"status\", \"headers\", \"body\"} rather than the body alone.")
    var include = false

    @Flag(help: "Print a body that is not JSON as it came.")
    var raw = false

    @Flag(name: .customLong("no-refresh"), help: "No refresh before, no retry after a 401.")
    var noRefresh = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await CallResource(
                url: url, method: method, headers: headers, body: data.map(CallResource.Body.init(argument:)), include: include, raw: raw,
                refresh: !noRefresh
            ).run(context)
        }
    }
}
