import Foundation

/// One authorization server as a client sees it: the discovered issuer plus our client credentials. Every
/// OAuth command that acts as the client starts here, so they all discover, cache and validate the same way.
/// (The sandbox's `HostedAuthorizationServer` is the server side of the same idea, a separate type in a library
/// this one never imports.)
public struct AuthorizationServer: Sendable {
    public let discovered: DiscoveredIssuer
    public let client: ClientCredentials

    public var issuer: URL { discovered.issuer }
    public var metadata: OpenIDConfiguration { discovered.metadata }
    public var http: HTTPClient { discovered.http }
    public var validator: JWTValidator { discovered.validator }
    var now: @Sendable () -> Date { discovered.now }

    package init(discovered: DiscoveredIssuer, client: ClientCredentials) {
        self.discovered = discovered
        self.client = client
    }

    /// Discovers `issuer` (default: the configured one) for `clientID` (default: the configured one).
    /// `dpopKey` signs a proof on every request to the server's endpoints, binding the tokens to it.
    public static func discover(
        _ context: IdFlowContext, issuer: URL? = nil, clientID: String? = nil, clientSecret: Secret? = nil, dpopKey: DPoPKey? = nil
    ) async throws(IdFlowError) -> AuthorizationServer {
        // Both are resolved before any request, so a missing setting is reported without a round trip.
        let resolvedIssuer = try DiscoveredIssuer.resolve(issuer, context)
        let resolvedClientID: String
        if let clientID, !clientID.isEmpty {
            resolvedClientID = clientID
        } else {
            resolvedClientID = try context.configuration.requireClientID()
        }
        return AuthorizationServer(
            discovered: try await DiscoveredIssuer.discover(context, issuer: resolvedIssuer),
            client: ClientCredentials(
                clientID: resolvedClientID, secret: clientSecret, dpopKey: dpopKey, bearerInPlaceOfDPoP: context.bearerInPlaceOfDPoP))
    }

    /// The server of a new login: its tokens DPoP-bound to a new key when `--dpop` (or the profile's `dpop`) asks.
    public static func discoverForLogin(_ context: IdFlowContext, clientSecret: Secret?) async throws(IdFlowError) -> AuthorizationServer {
        try await discover(context, clientSecret: clientSecret, dpopKey: context.configuration.bindsLoginsWithDPoP ? .generate() : nil)
    }

    /// The server and client a stored login came from: its refresh token is only good there.
    public static func discover(_ context: IdFlowContext, for stored: StoredTokens, clientSecret: Secret?) async throws(IdFlowError)
        -> AuthorizationServer
    {
        try await discover(
            context, issuer: try stored.pinnedIssuer(context), clientID: stored.clientId, clientSecret: clientSecret,
            dpopKey: stored.dpopKey.flatMap(DPoPKey.init(stored:)))
    }

    public var tokenEndpoint: TokenEndpoint {
        TokenEndpoint(http: http, url: metadata.tokenEndpoint, client: client)
    }

    /// Revokes one token as this client; `token revoke` and `logout` both come here.
    package func revoke(_ token: String, kind: TokenKind) async throws(IdFlowError) {
        try await revoke(token, hint: kind.rawValue)
    }

    /// Revokes a token the server names with `hint` (RFC 7009 §2.1), such as Native SSO's `device_secret`.
    package func revoke(_ token: String, hint: String) async throws(IdFlowError) {
        let endpoint = try metadata.require(metadata.revocationEndpoint, "revocation")
        try await http.send(RevocationRequest(endpoint: endpoint, client: client, token: token, hintName: hint))
    }

    /// Fetches (or finds cached) the keys the grant's ID token will be checked against, before the grant is
    /// made: once a refresh grant has answered, the server has rotated the refresh token, so a key fetch that
    /// fails afterwards would cost the only refresh token that still works.
    public func prepareToValidate(scope: String?) async throws(IdFlowError) {
        guard Self.asksForIDToken(scope) else { return }
        _ = try await validator.keys.keySet(refresh: false)
    }

    /// Validates the ID token of a token response (signature, iss, aud, exp/iat, nonce, at_hash) and returns
    /// its claims. A response without one is accepted only when `requestedScope` did not ask for `openid`: a
    /// server that drops the ID token would otherwise pass tokens off as a validated login.
    public func validateIDToken(in response: TokenResponse, nonce: NonceRequirement, requestedScope: String?) async throws(IdFlowError)
        -> JSONValue?
    {
        guard let idToken = response.idToken else {
            guard !Self.asksForIDToken(requestedScope) else {
                throw .security(
                    "the token response has no ID token although the scope asked for openid",
                    hint: "the server did not sign the login in; check --issuer, or leave openid out of --scope")
            }
            return nil
        }
        var policy = TokenValidationPolicy(
            issuer: metadata.issuer, audience: client.clientID, nonce: nonce, accessToken: response.accessToken, now: now())
        policy.deviceSecret = response.deviceSecret
        do throws(IdFlowError) {
            return try await validator.validate(idToken, policy: policy)
        } catch {
            // A token stamped by a server whose clock differs from this machine's says so, with the skew.
            let clock = await ServerClock.measure(http: http, now: now, url: OpenIDConfigurationRequest(issuer: issuer).url)
            throw await ServerClock.explain(error, clock: clock, now: policy.now) { (time: Date) throws(IdFlowError) in
                var atServerTime = policy
                atServerTime.now = time
                _ = try await validator.validate(idToken, policy: atServerTime)
            }
        }
    }

    /// The ID token of a refresh answer (OpenID Connect Core §12.2): validated when there is one, and then it must be
    /// about the same subject as the login it refreshes (`stored`, nil for a token given on stdin); nil when the
    /// answer has none, which the spec allows and many providers do (the login's ID token is then kept).
    public func validateRefreshedIDToken(in response: TokenResponse, stored: JSONValue?) async throws(IdFlowError) -> JSONValue? {
        guard response.idToken != nil else { return nil }
        let claims = try await validateIDToken(in: response, nonce: .notInThisGrant(.refreshToken), requestedScope: nil)
        if let claims, let before = stored?["sub"], claims["sub"] != before {
            throw .security("the refreshed ID token is for another subject than the stored one", hint: "log in again")
        }
        return claims
    }

    static func asksForIDToken(_ scope: String?) -> Bool {
        scope?.split(separator: " ").contains("openid") ?? false
    }

    /// The end of every fresh login (`login-pkce`, `login-device`, `register --idp`): the ID token checked, then
    /// the result built and, with a `reservation`, saved for the profile under its lock (or kept in a recovery file
    /// when the store still cannot take it). Nothing is printed or stored before the checks pass. Call
    /// `prepareToValidate`, and to store `TokenStore.reserve`, before the grant that produced `response`.
    public func acceptLogin(
        _ response: TokenResponse, nonce: NonceRequirement, requestedScope: String?, storingInto reservation: SecureFile.Reservation?,
        _ context: IdFlowContext
    ) async throws(IdFlowError) -> TokenOutput {
        let claims = try await validateIDToken(in: response, nonce: nonce, requestedScope: requestedScope)
        let (output, record) = result(response, claims: claims, previous: nil)
        if let reservation {
            let tokenStore = TokenStore(directory: context.configuration.profileDirectory)
            // The login it replaces, read as every reader does (no lock needed): only its subject is compared.
            Self.warnIfReplacing(try? tokenStore.load(), with: claims, context)
            try await tokenStore.saveUnderLock(record, into: reservation, context)
        }
        return output
    }

    /// The printable result and the record to store for a token response; a response without a refresh
    /// token keeps the previous one (the server did not rotate it).
    public func result(_ response: TokenResponse, claims: JSONValue?, previous: StoredTokens?) -> (TokenOutput, StoredTokens) {
        var tokens = response
        if tokens.refreshToken == nil { tokens.refreshToken = previous?.tokens.refreshToken }
        // A refresh never mints a device secret; the login's stays good for Native SSO (native-sso.md §1.4).
        if tokens.deviceSecret == nil { tokens.deviceSecret = previous?.tokens.deviceSecret }
        if tokens.idToken == nil, claims == nil { tokens.idToken = previous?.tokens.idToken }
        let expiresAt = response.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) }
        let idTokenClaims = claims ?? (tokens.idToken == previous?.tokens.idToken ? previous?.idTokenClaims : nil)
        var stored = StoredTokens(
            issuer: metadata.issuer, clientId: client.clientID, tokens: tokens, expiresAt: expiresAt, idTokenClaims: idTokenClaims,
            savedAt: now())
        if tokens.tokenType.lowercased() == "dpop" { stored.dpopKey = client.dpopKey?.stored }
        return (TokenOutput(response: tokens, expiresAt: expiresAt, idTokenClaims: idTokenClaims), stored)
    }
}
