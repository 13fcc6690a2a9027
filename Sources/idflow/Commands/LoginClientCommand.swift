import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct LoginClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-client",
        abstract: "Get a client's own token (client credentials).",
        discussion: """
            Client credentials against any OpenID provider, the client proven by its secret \
            (--client-secret-file) or its key (--private-key-file: private_key_jwt, RS256 or ES256). --dpop binds \
            the token to a new key (RFC 9449). For Okta's okta.* scopes the issuer is the org itself.

            The client id and scope default to the service app's when a key is given. The response is printed with \
            expires_at and stored for the profile unless --no-store, for `api` and `token get`. A refused client: \
            exit 4; a scope not granted: exit 3 or 4 as the server classes it.

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
            let secret = try clientSecret.secret(context, unlessKey: global.privateKeyFile)
            return try await LoginClient(clientID: global.clientID, clientSecret: secret, store: !noStore).run(context)
        }
    }
}
