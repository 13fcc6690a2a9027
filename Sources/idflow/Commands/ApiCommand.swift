import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct ApiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Call your API with the profile's access token.",
        usage: "idflow api <url> [<options>]",
        discussion: """
            Sends the request with the stored access token and prints the response body on stdout: JSON as the \
            server sent it, any other body only with --raw, nothing for an empty one; --include prints \
            {"status","headers","body"} instead, on failure too. A token that expires within 60 s is refreshed \
            first; a 401 to a token that looked valid gets one refresh (saved as `idflow refresh` saves it) and \
            one retry. With nothing stored the request goes without a token. A 401 whose WWW-Authenticate names \
            RFC 9728 metadata (resource_metadata) is checked against the metadata's authorization_servers: when \
            none is the profile's issuer, idflow stops and names the issuer to log in to. A 403 \
            insufficient_scope names the scope. Redirects are followed, the token only to the same origin. \
            -H Authorization (and DPoP) is refused: the token is the profile's.

            Exit codes by status: 401/403 → 4, 404 → 5, other 4xx → 3, 5xx → 7, network or TLS → 6.

              $ idflow api https://api.example.com/v1/me | jq .
              $ idflow api -X POST --data @order.json https://api.example.com/v1/orders
              $ jq -n '{qty: 2}' | idflow api --data @- https://api.example.com/v1/cart
              $ idflow api --include https://api.example.com/v1/me | jq .status

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
        help: ArgumentHelp("A request header, `Name: value`; repeat for more. Authorization and DPoP are refused.", valueName: "header"))
    var headers: [String] = []

    @Option(
        help: ArgumentHelp(
            "The request body: JSON, @FILE, or @- for standard input (sent as application/json unless -H Content-Type says otherwise).",
            valueName: "body"),
        completion: .file())
    var data: String?

    @Flag(name: .shortAndLong, help: "Print {\"status\", \"headers\", \"body\"} rather than the body alone.")
    var include = false

    @Flag(help: "Print a body that is not JSON as it came (with --include: as a string).")
    var raw = false

    @Flag(name: .customLong("no-refresh"), help: "Send the stored token as it is: no refresh before, no retry after a 401.")
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
