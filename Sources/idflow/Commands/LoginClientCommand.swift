import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LoginClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-client",
        abstract: "Get a client's own token (client credentials).",
        discussion: """
            The grant machine-to-machine clients use, against any OpenID provider: the client proves itself with \
            its secret (--client-secret-file, HTTP Basic) or its private key (--private-key-file, a private_key_jwt \
            assertion signed RS256 or ES256, with --private-key-id as its kid). With --dpop the token is bound to a \
            new key (RFC 9449) and every later use of it is signed with that key. The token endpoint is the issuer's \
            (--issuer; for Okta's own okta.* scopes, the org: --issuer https://dev-123.okta.com).

            The client id is --client-id, else with a key the service app's (--service-client-id, \
            OKTA_CLIENT_CLIENTID). The scope is --scope, else with a key the service app's scopes, else none (the \
            server's default). The token response is printed with expires_at and stored for the profile (with its \
            DPoP key) unless --no-store, so `idflow api` and `idflow token get` use it.

            A refused client (wrong secret or key, unknown client, replayed assertion): exit 4. A scope not granted: \
            exit 3 or 4 as the server classes it. An app that requires DPoP without --dpop: exit 4, the hint says so.

              $ idflow login-client --issuer "$OKTA_CLIENT_ORGURL" \\
                  --private-key-file key.pem --scope okta.users.read
              $ idflow login-client --client-id 0oa... \\
                  --client-secret-file secret.txt --scope api:read --dpop

            \(GlobalOptions.helpNote)
            """)

    @Flag(name: .customLong("no-store"), help: "Print the token without saving it.")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            if clientSecret.clientSecretFile != nil, global.privateKeyFile != nil {
                throw IdFlowError.invalidInput(
                    "--client-secret-file and --private-key-file cannot be used together", hint: "a client proves itself one way")
            }
            // A key given on the command line wins over a secret the environment or profile may hold.
            let secret = global.privateKeyFile == nil ? try clientSecret.secret(context) : nil
            return try await LoginClient(clientID: global.clientID, clientSecret: secret, store: !noStore).run(context)
        }
    }
}
