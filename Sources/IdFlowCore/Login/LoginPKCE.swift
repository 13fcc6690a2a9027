import Foundation
import IdFlowFoundation

/// Resolves an Authn transaction that stopped at multifactor authentication into a session token; the push
/// MFA flow plugs in here.
public protocol MFAResolver: Sendable {
    func sessionToken(for transaction: AuthnTransaction, authn: AuthnAPI) async throws(IdFlowError) -> String
}

/// OAuth 2.0 authorization code + PKCE for a native app (RFC 6749, 7636, 8252; OIDC Core), in four ways of
/// getting the code; the exchange, ID-token validation and storage are the same for all.
public struct LoginPKCE: Sendable {
    public enum Method: Sendable {
        /// Okta: an Authn session token redeemed at /authorize with `prompt=none`, no browser.
        case sessionToken(Secret)
        /// Okta: primary authentication first, then the session token.
        case credentials(username: String, password: Secret)
        /// A browser on this machine, redirected to a listener on 127.0.0.1.
        case browser(port: UInt16?, timeout: Duration, opener: BrowserOpener)
        /// Print the URL; the user pastes the redirect URL (or the code) back on stdin.
        case manual(readLine: @Sendable () -> String?)
    }

    public var method: Method
    public var clientSecret: Secret?
    /// Save to the profile's token store (false with `--no-store`).
    public var store: Bool
    public var mfa: (any MFAResolver)?
    /// With `.credentials`: the password that replaces an expired one (or a warned one, when given).
    public var newPassword: NewPassword

    public init(
        method: Method, clientSecret: Secret? = nil, store: Bool = true, mfa: (any MFAResolver)? = nil,
        newPassword: NewPassword = NewPassword()
    ) {
        self.method = method
        self.clientSecret = clientSecret
        self.store = store
        self.mfa = mfa
        self.newPassword = newPassword
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> SignInOutput {
        let server = try await AuthorizationServer.discoverForLogin(context, clientSecret: clientSecret)
        guard server.metadata.codeChallengeMethodsSupported?.contains("S256") ?? true else {
            throw .rejected("the authorization server does not support PKCE S256", hint: "idflow only logs in with PKCE")
        }
        let code: String
        let request: AuthorizationRequest
        var passwordStates: AuthnPasswordStates.Outcome?
        switch method {
        case .sessionToken(let token):
            request = try authorizationRequest(server, context, redirectURI: try configuredRedirectURI(context))
            code = try await server.http.send(SessionTokenAuthorizeRequest(authorization: request, sessionToken: token))
        case .credentials(let username, let password):
            let authn = AuthnAPI(http: context.http, orgURL: try oktaOrg(context, server))
            let transaction: AuthnTransaction
            do throws(IdFlowError) {
                transaction = try await authn.authenticate(username: username, password: password)
            } catch {
                guard case .okta(401, let body, _) = error, body.errorCode == "E0000004" else { throw error }
                throw await RefusedSignIn.explain(error, username: username, context: context)
            }
            let states = AuthnPasswordStates(
                authn: authn, username: username, oldPassword: password, newPassword: newPassword, context: context)
            let outcome = try await states.resolve(transaction)
            passwordStates = outcome
            let sessionToken = try await sessionToken(from: outcome.transaction, authn: authn, username: username)
            request = try authorizationRequest(server, context, redirectURI: try configuredRedirectURI(context))
            code = try await server.http.send(SessionTokenAuthorizeRequest(authorization: request, sessionToken: Secret(sessionToken)))
        case .browser(let port, let timeout, let opener):
            (request, code) = try await browserLogin(server, context, port: port, timeout: timeout, opener: opener)
        case .manual(let readLine):
            request = try authorizationRequest(server, context, redirectURI: try configuredRedirectURI(context))
            context.notice("Open this URL in a browser, sign in, then paste the full URL you were redirected to (or just the code):")
            context.notice(request.url.absoluteString)
            guard let line = readLine()?.trimmingCharacters(in: .whitespacesAndNewlines), !line.isEmpty else {
                throw .invalidInput("nothing was pasted on standard input", hint: "paste the redirect URL and press Enter")
            }
            // A bare code cannot carry state; only a pasted URL can be checked against it.
            code = line.contains("=") ? try AuthorizationResponse.code(from: line, expectedState: request.state) : line
        }

        let tokens = try await server.completeLogin(context, scope: request.scope, nonce: .mustEqual(request.nonce), store: store) {
            () throws(IdFlowError) in
            try await server.tokenEndpoint.exchange(code: code, redirectURI: request.redirectURI, verifier: request.pkce.verifier)
        }
        return SignInOutput(tokens: tokens, passwordWarning: passwordStates?.warning, passwordChanged: passwordStates?.changed ?? false)
    }

    private func configuredRedirectURI(_ context: IdFlowContext) throws(IdFlowError) -> String {
        try context.configuration.requireRedirectURI()
    }

    private func authorizationRequest(_ server: AuthorizationServer, _ context: IdFlowContext, redirectURI: String) throws(IdFlowError)
        -> AuthorizationRequest
    {
        AuthorizationRequest(
            endpoint: server.metadata.authorizationEndpoint, clientID: server.client.clientID, redirectURI: redirectURI,
            scope: context.configuration.scope)
    }

    /// Okta's org for the Authn API: the configured org, else the issuer's origin (`{org}/oauth2/default`).
    private func oktaOrg(_ context: IdFlowContext, _ server: AuthorizationServer) throws(IdFlowError) -> URL {
        if context.configuration.orgURL != nil { return try context.configuration.requireOrgURL() }
        guard let origin = Origin(server.issuer) else { return try context.configuration.requireOrgURL() }
        return origin.url
    }

    private func sessionToken(from transaction: AuthnTransaction, authn: AuthnAPI, username: String) async throws(IdFlowError) -> String {
        switch transaction.status {
        case "SUCCESS":
            guard let token = transaction.sessionToken else { throw .protocolViolation("SUCCESS without a sessionToken") }
            return token
        case "MFA_REQUIRED", "MFA_CHALLENGE":
            guard let mfa else {
                let factors = transaction.embedded?.factors?.map(\.factorType).joined(separator: ", ") ?? "unknown"
                throw .authentication(
                    "the sign-on policy requires multifactor authentication (\(transaction.status); factors: \(factors))",
                    hint:
                        "rerun with --mfa push to wait for a push answered by an enrolled authenticator (`idflow resolve` on the enrolled machine), or use --browser"
                )
            }
            return try await mfa.sessionToken(for: transaction, authn: authn)
        case "MFA_ENROLL", "MFA_ENROLL_ACTIVATE":
            throw .authentication(
                "the user must enroll a factor before signing in (\(transaction.status))", hint: "enroll in a browser first (--browser)")
        case "PASSWORD_EXPIRED", "PASSWORD_WARN":
            // Only after a step that comes before the password's (an MFA answer), which this flow does not go back from.
            throw .authentication(
                "the password of \(username) has expired (\(transaction.status), after multifactor authentication)",
                hint:
                    "change it with `idflow login-pkce --embedded --username \(ShellWord.quote(username))` and \(NewPassword.options), then log in again"
            )
        case "LOCKED_OUT":
            throw RefusedSignIn.account(username, status: "LOCKED_OUT") ?? .authentication("the account \(username) is locked out")
        default:
            throw .protocolViolation("unexpected Authn status \(transaction.status) after primary authentication")
        }
    }

    private func browserLogin(
        _ server: AuthorizationServer, _ context: IdFlowContext, port: UInt16?, timeout: Duration, opener: BrowserOpener
    ) async throws(IdFlowError) -> (AuthorizationRequest, String) {
        // A configured loopback redirect URI is used as registered (its port and path); otherwise any free port.
        let loopback = context.configuration.loopbackRedirect
        let path = loopback?.path ?? "/callback"
        let receiver = try LoopbackReceiver(port: port ?? loopback?.port ?? 0)
        let request = try authorizationRequest(server, context, redirectURI: "http://127.0.0.1:\(receiver.port)\(path)")
        // Ctrl-C or SIGTERM from the moment the URL is shown ends the wait as `.interrupted` (exit 130, the error line),
        // nothing stored. Only this login's redirect ends it otherwise; a forged or stray callback is refused and noted.
        let code = try await Interruption.cancellingOnInterrupt("interrupted while waiting for the browser sign-in") {
            () throws(IdFlowError) in
            opener.open(request.url, saying: "Opening the browser to sign in; if it does not open, visit:", to: context.notice)
            return try await receiver.waitForRedirect(path: path, expectedState: request.state, timeout: timeout) { note in
                context.notice(note)
            }
        }
        return (request, code)
    }
}
