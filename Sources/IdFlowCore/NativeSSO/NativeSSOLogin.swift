import Foundation
import IdFlowFoundation

/// `login-sso`: Native SSO (native-sso.md §1.3). The ID token and device secret another app's login stored
/// (`--device-sso`) buy this app's tokens with no prompt, validated and stored as any login's. The ID token is
/// sent even when expired: Okta takes it while the session it names lives (§1.4).
public struct NativeSSOLogin: Sendable {
    public var fromProfile: String
    public var clientID: String
    public var clientSecret: Secret?
    public var audience: String?
    public var store: Bool

    public init(fromProfile: String, clientID: String, clientSecret: Secret?, audience: String?, store: Bool) {
        self.fromProfile = fromProfile
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.audience = audience
        self.store = store
    }

    /// The scope this app asks for by default: the sign-in, without `device_sso` (the secret is the first app's).
    static let defaultScope = "openid profile offline_access"

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        if store, fromProfile == context.configuration.profile {
            throw .invalidInput(
                "--from and --profile both name profile \(fromProfile): its device secret would be replaced",
                hint: "store the new app's tokens under another --profile")
        }
        let signInAgain = "sign in again with `idflow login-device --device-sso --profile \(fromProfile)`"
        let source = try StoredLogin.load(fromProfile, context, hint: signInAgain)
        guard let deviceSecret = source.tokens.deviceSecret, let idToken = source.tokens.idToken else {
            throw .localState("the login of profile \(fromProfile) holds no device secret and ID token", hint: signInAgain)
        }
        let issuer = try StoredLogin.issuer(source)
        let client = ClientCredentials(clientID: clientID, secret: clientSecret, bearerInPlaceOfDPoP: context.bearerInPlaceOfDPoP)
        let server = AuthorizationServer(discovered: try await DiscoveredIssuer.discover(context, issuer: issuer), client: client)
        let scope = context.configuration.explicitScope ?? Self.defaultScope
        return try await server.completeLogin(context, scope: scope, nonce: .notInThisGrant(.tokenExchange), store: store) {
            () throws(IdFlowError) in
            try await server.http.send(
                TokenExchangeRequest(
                    tokenEndpoint: server.metadata.tokenEndpoint, client: client, subjectToken: idToken,
                    subjectTokenType: TokenTypeURN.idToken, actorToken: deviceSecret, actorTokenType: TokenTypeURN.deviceSecret,
                    audience: audience ?? StoredLogin.defaultAudience(issuer), scope: scope, signInAgain: signInAgain))
        }
    }
}
