import Foundation

/// One authorization server as a client sees it: its discovery document, our client credentials, and the
/// keys its tokens are checked against. Every OAuth command starts here, so they all discover, cache and
/// validate the same way. (The sandbox's `AuthorizationServer` is the server side of the same idea, a
/// separate type in a library this one never imports.)
public struct AuthorizationServer: Sendable {
    public let issuer: URL
    public let client: ClientCredentials
    public let metadata: OpenIDConfiguration
    public let http: HTTPClient
    public let validator: JWTValidator
    let now: @Sendable () -> Date

    /// Discovers `issuer` (default: the configured one) for `clientID` (default: the configured one).
    public static func discover(
        _ context: IdFlowContext, issuer: URL? = nil, clientID: String? = nil, clientSecret: Secret? = nil
    ) async throws(IdFlowError) -> AuthorizationServer {
        let resolvedIssuer: URL
        if let issuer {
            try TransportSecurity.check(issuer)
            resolvedIssuer = issuer
        } else {
            resolvedIssuer = try context.configuration.requireIssuer()
        }
        let resolvedClientID: String
        if let clientID, !clientID.isEmpty {
            resolvedClientID = clientID
        } else {
            resolvedClientID = try context.configuration.requireClientID()
        }
        let cache = context.configuration.stateDirectory.appendingPathComponent("cache", isDirectory: true)
        let metadata = try await Discovery(http: context.http, cacheDirectory: cache, now: context.now).configuration(for: resolvedIssuer)
        let keys = JWKSCache(http: context.http, jwksURI: metadata.jwksURI, cacheDirectory: cache, now: context.now)
        return AuthorizationServer(
            issuer: resolvedIssuer, client: ClientCredentials(clientID: resolvedClientID, secret: clientSecret), metadata: metadata, http: context.http,
            validator: JWTValidator(keys: keys), now: context.now)
    }

    /// The server and client a stored login came from: its refresh token is only good there.
    public static func discover(_ context: IdFlowContext, for stored: StoredTokens, clientSecret: Secret?) async throws(IdFlowError) -> AuthorizationServer {
        guard let issuer = URL(string: stored.issuer) else { throw .localState("the stored issuer \(stored.issuer) is not a URL") }
        return try await discover(context, issuer: issuer, clientID: stored.clientId, clientSecret: clientSecret)
    }

    public var tokenEndpoint: TokenEndpoint {
        TokenEndpoint(http: http, url: metadata.tokenEndpoint, client: client)
    }

    /// Validates the ID token of a token response (signature, iss, aud, exp/iat, nonce, at_hash) and returns
    /// its claims; nil when the response has no ID token (no `openid` scope).
    public func validateIDToken(in response: TokenResponse, nonce: String?) async throws(IdFlowError) -> JSONValue? {
        guard let idToken = response.idToken else { return nil }
        let policy = TokenValidationPolicy(
            issuer: metadata.issuer, audience: client.clientID, nonce: nonce, accessToken: response.accessToken, now: now())
        return try await validator.validate(idToken, policy: policy)
    }

    /// The printable result and the record to store for a token response; a response without a refresh
    /// token keeps the previous one (the server did not rotate it).
    public func result(_ response: TokenResponse, claims: JSONValue?, previous: StoredTokens?) -> (TokenOutput, StoredTokens) {
        var tokens = response
        if tokens.refreshToken == nil { tokens.refreshToken = previous?.tokens.refreshToken }
        if tokens.idToken == nil, claims == nil { tokens.idToken = previous?.tokens.idToken }
        let expiresAt = response.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) }
        let idTokenClaims = claims ?? (tokens.idToken == previous?.tokens.idToken ? previous?.idTokenClaims : nil)
        let stored = StoredTokens(
            issuer: metadata.issuer, clientId: client.clientID, tokens: tokens, expiresAt: expiresAt, idTokenClaims: idTokenClaims, savedAt: now())
        return (TokenOutput(response: tokens, expiresAt: expiresAt, idTokenClaims: idTokenClaims), stored)
    }
}
