import Foundation
import HTTPTypes
import Hummingbird

/// `GET {issuer}/v1/authorize` and the sign-in form it may show (`POST …/v1/authorize/signin`).
///
/// Checks follow Okta's order: an unknown client or unregistered redirect URI gets an HTML page
/// (never a redirect to an unverified URI); every other problem is redirected to the client.
struct AuthorizeController {
    let state: SandboxState

    /// `sid`: the cookie that remembers a signed-in browser.
    static let sessionCookie = "sid"
    /// Characters Okta allows in `state`.
    static let stateCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789,._-")
    static let codeChallengeCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    func register(in routes: RouteRegistry) {
        routes.oauth("/authorize", .get, use: authorize)
        routes.oauth("/authorize/signin", .post, use: signIn)
    }

    /// A redirect-able `/authorize` error: `error`, `error_description` and the echoed `state`.
    struct RedirectedError: Error {
        let error: String
        let description: String
    }

    @Sendable func authorize(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        let query = request.queryParameters
        guard let clientID = query["client_id"], let client = state.configuration.oauthClients.first(where: { $0.id == clientID })
        else {
            return AuthorizeWire.errorPage("invalid_client", "Invalid value for 'client_id' parameter.")
        }
        guard let redirectURI = query["redirect_uri"], client.allowsRedirect(to: redirectURI) else {
            return AuthorizeWire.errorPage(
                "invalid_request",
                "The 'redirect_uri' parameter must be a Login redirect URI in the client app settings.")
        }
        let sentState = query["state"].flatMap { value in
            !value.isEmpty && value.allSatisfy(Self.stateCharacters.contains) ? value : nil
        }
        var mode = ResponseMode.query
        do {
            if let rawMode = query["response_mode"] {
                guard let parsed = ResponseMode(rawValue: rawMode) else {
                    throw RedirectedError(
                        error: "unsupported_response_mode", description: "The response mode '\(rawMode)' is not supported.")
                }
                mode = parsed
            }
            let authorizeRequest = try Self.validate(query, server: server, client: client, redirectURI: redirectURI, mode: mode)
            if authorizeRequest.scopes.contains("interclient_access"), !state.configuration.isInterclientOrigin(client.id) {
                throw RedirectedError(error: "invalid_scope", description: InterclientExchange.noScopeTrust.errorDescription)
            }
            return try await authenticate(request, authorizeRequest, server: server, prompt: Self.prompt(query))
        } catch let error as RedirectedError {
            var parameters = [("error", error.error), ("error_description", error.description)]
            if let sentState { parameters.append(("state", sentState)) }
            return AuthorizeWire.redirect(to: redirectURI, mode: mode, parameters: parameters)
        }
    }

    /// The checks after client and redirect URI, in Okta's order.
    static func validate(
        _ query: FormParameters, server: HostedAuthorizationServer, client: OAuthClient, redirectURI: String, mode: ResponseMode
    ) throws -> AuthorizeRequest {
        guard query["response_type"] == "code" else {
            throw RedirectedError(
                error: "unsupported_response_type",
                description: "The response type is not supported by the authorization server. Configured response types: [code].")
        }
        guard let state = query["state"], !state.isEmpty else {
            throw RedirectedError(error: "invalid_request", description: "The 'state' parameter is required.")
        }
        guard state.allSatisfy(stateCharacters.contains) else {
            throw RedirectedError(
                error: "invalid_request", description: "The 'state' parameter contains illegal characters.")
        }
        let scopes = try requestedScopes(query["scope"], server: server)
        let challenge = query["code_challenge"]
        if challenge == nil, client.isPublic {
            throw RedirectedError(
                error: "invalid_request",
                description: "PKCE code challenge is required when the token endpoint authentication method is 'NONE'.")
        }
        if let challenge {
            guard query["code_challenge_method"] == "S256" else {
                throw RedirectedError(
                    error: "invalid_request",
                    description: "Invalid value for 'code_challenge_method' parameter. Only S256 is supported.")
            }
            guard (43...128).contains(challenge.count), challenge.allSatisfy(codeChallengeCharacters.contains) else {
                throw RedirectedError(error: "invalid_request", description: "PKCE code challenge contains illegal characters.")
            }
        }
        let prompt = prompt(query)
        guard prompt.isSubset(of: ["none", "login", "consent"]), !(prompt.contains("none") && prompt.count > 1) else {
            throw RedirectedError(error: "invalid_request", description: "The 'prompt' parameter is invalid.")
        }
        return AuthorizeRequest(
            server: server, client: client, redirectURI: redirectURI, scopes: scopes, state: state,
            nonce: query["nonce"], codeChallenge: challenge, responseMode: mode)
    }

    /// The requested scopes, each once and in order, checked as Okta checks them at `/authorize` and at
    /// `/device/authorize`: at least one, all offered by `server`, `openid` among them.
    static func requestedScopes(_ raw: String?, server: HostedAuthorizationServer) throws(RedirectedError) -> [String] {
        var scopes: [String] = []
        for scope in (raw ?? "").split(separator: " ").map(String.init) where !scopes.contains(scope) {
            scopes.append(scope)
        }
        guard !scopes.isEmpty else {
            throw RedirectedError(
                error: "invalid_scope",
                description:
                    "The authorization server resource does not have any configured default scopes, 'scope' must be provided.")
        }
        guard scopes.allSatisfy(server.scopesSupported.contains) else {
            throw RedirectedError(
                error: "invalid_scope",
                description: "One or more scopes are not configured for the authorization server resource.")
        }
        guard scopes.contains("openid") else {
            throw RedirectedError(error: "invalid_scope", description: "The 'openid' scope is required.")
        }
        return scopes
    }

    /// The `prompt` values (`none`, `login`, `consent`), space-separated in the request.
    static func prompt(_ query: FormParameters) -> Set<String> {
        Set((query["prompt"] ?? "").split(separator: " ").map(String.init))
    }

    /// Who is signing in: a `sessionToken` from Authn, the `sid` browser session, or the form.
    private func authenticate(
        _ request: Request, _ authorizeRequest: AuthorizeRequest, server: HostedAuthorizationServer, prompt: Set<String>
    ) async throws -> Response {
        // Native-to-Web SSO (native-sso.md §2.3): the one-time token signs the browser in, with no password page.
        if let interclientToken = request.queryParameters["interclient_token"] {
            guard let claims = try await state.signingKey().verified(interclientToken, as: InterclientTokenClaims.self) else {
                throw RedirectedError(error: "invalid_token", description: "The 'interclient_token' is invalid.")
            }
            let grant = try await state.consumeInterclientToken(
                claims, clientId: authorizeRequest.client.id, issuer: server.issuer(orgURL: await state.orgURL))
            return await success(authorizeRequest, grant: grant, sid: await state.startBrowserSession(grant))
        }
        if let sessionToken = request.queryParameters["sessionToken"] {
            if let grant = await state.consumeSessionToken(sessionToken) {
                let sid = await state.startBrowserSession(grant)
                return await success(authorizeRequest, grant: grant, sid: sid)
            }
            if prompt.contains("none") {
                throw RedirectedError(error: "login_required", description: "The session token is invalid or has expired.")
            }
        }
        if !prompt.contains("login"), let sid = request.cookies[Self.sessionCookie]?.value,
            let grant = await state.browserSession(sid: sid)
        {
            return await success(authorizeRequest, grant: grant, sid: nil)
        }
        if prompt.contains("none") {
            throw RedirectedError(
                error: "login_required", description: "The client specified not to prompt, but the user is not logged in.")
        }
        let txn = await state.beginAuthorization(authorizeRequest)
        return AuthorizeWire.signInPage(action: await signInAction(server), txn: txn)
    }

    /// `POST …/v1/authorize/signin` (form: `txn`, `username`, `password`). Bad credentials show
    /// the page again (200, with a message); good ones redirect with the code and set `sid`.
    @Sendable func signIn(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        var request = request
        let form = try await request.formBody(context: context)
        let txn = form["txn"] ?? ""
        let username = form["username"] ?? ""
        switch await state.completeSignIn(
            txn: txn, server: server, username: username, password: form["password"] ?? "")
        {
        case .expired:
            return AuthorizeWire.errorPage(
                "invalid_request", "This sign-in request is unknown or has expired. Start again from the app.")
        case .rejected:
            return AuthorizeWire.signInPage(
                action: await signInAction(server), txn: txn,
                error: "Sign-in failed: check your username and password.", username: username)
        case .signedIn(let authorizeRequest, let code, let sid):
            return AuthorizeWire.redirect(
                to: authorizeRequest.redirectURI, mode: authorizeRequest.responseMode,
                parameters: [("code", code), ("state", authorizeRequest.state)], headers: Self.sessionCookieHeader(sid))
        }
    }

    private func success(_ authorizeRequest: AuthorizeRequest, grant: SessionGrant, sid: String?) async -> Response {
        let code = await state.issueCode(for: authorizeRequest, grant: grant)
        return AuthorizeWire.redirect(
            to: authorizeRequest.redirectURI, mode: authorizeRequest.responseMode,
            parameters: [("code", code), ("state", authorizeRequest.state)],
            headers: sid.map(Self.sessionCookieHeader) ?? [:])
    }

    private func signInAction(_ server: HostedAuthorizationServer) async -> String {
        server.endpointBase(orgURL: await state.orgURL) + "/authorize/signin"
    }

    static func sessionCookieHeader(_ sid: String) -> HTTPFields {
        [.setCookie: "\(sessionCookie)=\(sid); Path=/; HttpOnly; SameSite=Lax"]
    }
}
