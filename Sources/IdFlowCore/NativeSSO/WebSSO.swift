import Foundation
import IdFlowFoundation

/// `web-sso`: Native-to-Web SSO (native-sso.md §2). The profile's access token (with `interclient_access`) and
/// ID token buy a single-use interclient token for web app W, and the `/authorize` link carrying it signs a
/// browser in to W with no password page (§2.3). The link is the output; `--open` hands it to the browser.
public struct WebSSO: Sendable {
    public var clientID: String
    public var redirectURI: String?
    public var opener: BrowserOpener?

    public init(clientID: String, redirectURI: String?, opener: BrowserOpener?) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.opener = opener
    }

    /// What `web-sso` prints: the link (it holds the token, so it is printed only here, never traced) and when the
    /// token in it expires. The link is under `url`, the name docs/contract.md promised, and `authorize_url` alike.
    public struct Output: Encodable, Sendable {
        public var authorizeURL: URL
        public var clientID: String
        public var state: String
        public var expiresAt: Date?

        enum CodingKeys: String, CodingKey {
            case url
            case authorizeURL = "authorize_url"
            case clientID = "client_id"
            case state
            case expiresAt = "expires_at"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(authorizeURL.absoluteString, forKey: .url)
            try container.encode(authorizeURL.absoluteString, forKey: .authorizeURL)
            try container.encode(clientID, forKey: .clientID)
            try container.encode(state, forKey: .state)
            try container.encodeIfPresent(expiresAt.map(ISO8601.string), forKey: .expiresAt)
        }
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let profile = context.configuration.profile
        let signInAgain =
            "sign in again with interclient_access in --scope (`idflow login-pkce --issuer ORG --scope \"openid profile offline_access interclient_access\"`)"
        let stored = try TokenStore(directory: context.configuration.profileDirectory).loadRequired(profile: profile, hint: signInAgain)
        guard let idToken = stored.tokens.idToken else {
            throw .localState("the login of profile \(profile) has no ID token", hint: signInAgain)
        }
        guard let redirect = redirectURI ?? context.configuration.redirectURI, !redirect.isEmpty else {
            throw .configuration("web-sso needs the web app's redirect URI", hint: "pass --redirect-uri URI")
        }
        let secret = try context.clientSecret(for: stored.clientId, given: nil)
        let server = try await AuthorizationServer.discover(context, for: stored, clientSecret: secret)
        let issued = context.now()
        let response = try await server.http.send(
            TokenExchangeRequest(
                tokenEndpoint: server.metadata.tokenEndpoint, client: server.client, subjectToken: idToken,
                subjectTokenType: TokenTypeURN.idToken, actorToken: stored.tokens.accessToken, actorTokenType: TokenTypeURN.accessToken,
                requestedTokenType: TokenTypeURN.interclientToken, audience: "urn:okta:apps:\(clientID)", signInAgain: signInAgain))
        let state = RandomValue.base64URL(bytes: 16)
        var components = URLComponents(url: server.metadata.authorizationEndpoint, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = FormEncoding.encode([
            ("client_id", clientID), ("response_type", "code"), ("scope", "openid"), ("redirect_uri", redirect), ("state", state),
            ("interclient_token", response.accessToken),
        ])
        guard let url = components?.url else { throw .internalFailure("cannot build the /authorize link") }
        if let opener, let problem = opener.open(url) { context.notice(problem) }
        return Output(
            authorizeURL: url, clientID: clientID, state: state,
            expiresAt: response.expiresIn.map { issued.addingTimeInterval(TimeInterval($0)) })
    }
}
