import Foundation
import IdFlowFoundation

/// `login-client`: the client-credentials grant itself, for any OpenID provider. The client proves itself with a
/// secret or a private key (`private_key_jwt`), and with `--dpop` the token is bound to a new key. The token is
/// printed as the login commands print theirs and stored for the profile (with its DPoP key), so `api`,
/// `token get` and `token inspect` work with it as with a user's login.
public struct LoginClient: Sendable {
    /// `--client-id` as given on the command line; otherwise a key means the service app's client id.
    public var clientID: String?
    public var clientSecret: Secret?
    public var store: Bool

    public init(clientID: String?, clientSecret: Secret?, store: Bool) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.store = store
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        let configuration = context.configuration
        let settings = configuration.serviceApp
        if clientSecret == nil, settings.privateKey == nil {
            throw .configuration(
                "login-client needs the client's secret or private key",
                hint: "pass --client-secret-file F (client_secret_basic) or --private-key-file K [--private-key-id KID] (private_key_jwt)")
        }
        let key = try ClientProof.key(context, clientSecret: clientSecret)
        guard let resolvedClientID = ClientProof.clientID(clientID, key: key, context) else {
            throw .configuration(
                "no client id configured for login-client",
                hint: "pass --client-id ID (or --service-client-id / OKTA_CLIENT_CLIENTID with a private key)")
        }
        let discovered = try await DiscoveredIssuer.discover(context, issuer: try DiscoveredIssuer.resolve(nil, context))
        let bind = configuration.bindsLoginsWithDPoP || (key != nil && settings.dpop)
        let client = ClientCredentials(
            clientID: resolvedClientID, secret: clientSecret, assertionKey: key, dpopKey: bind ? .generate() : nil,
            bearerInPlaceOfDPoP: context.bearerInPlaceOfDPoP)
        let server = AuthorizationServer(discovered: discovered, client: client)
        // A scope chosen for this command; without one a private key asks for the service app's scopes, a secret
        // for none (the server's default scopes).
        let scope = configuration.explicitScope ?? (key != nil ? settings.scopes.joined(separator: " ") : nil)
        let tokenStore = TokenStore(directory: configuration.profileDirectory)
        let reservation = store ? try tokenStore.reserve() : nil
        let response = try await server.http.send(
            ClientCredentialsGrantRequest(tokenEndpoint: server.metadata.tokenEndpoint, client: client, scope: scope))
        let (output, record) = server.result(response, claims: nil, previous: nil)
        if let reservation { try await tokenStore.saveUnderLock(record, into: reservation, context) }
        return output
    }
}
