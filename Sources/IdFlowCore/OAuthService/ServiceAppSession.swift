import Foundation
import IdFlowFoundation

/// One run's service app (PrivateKey mode): gets the client-credentials token once and shares it between every
/// management call of the run, concurrent ones included (`register --batch`), and between runs through the cache,
/// so a runbook of twenty commands makes one token request. An actor, so concurrent callers wait for the one
/// request in flight instead of each making their own.
public actor ServiceAppSession {
    let http: HTTPClient
    let orgURL: URL
    let clientID: String
    let scopes: [String]
    let dpop: Bool
    let key: ClientAssertionKey
    let cache: ServiceAppTokenCache?
    let now: @Sendable () -> Date
    let bearerInPlaceOfDPoP: BearerInPlaceOfDPoP
    /// Where a token that could not be cached is reported (stderr).
    let warn: @Sendable (String) -> Void
    private var current: ServiceAppToken?

    /// `cache` nil keeps the token in memory only (`login-client --no-store`).
    init(
        http: HTTPClient, orgURL: URL, clientID: String, scopes: [String], dpop: Bool, key: ClientAssertionKey,
        cache: ServiceAppTokenCache?,
        now: @escaping @Sendable () -> Date = { Date() }, bearerInPlaceOfDPoP: BearerInPlaceOfDPoP = .refused,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.warn = warn
        self.bearerInPlaceOfDPoP = bearerInPlaceOfDPoP
        self.http = http
        self.orgURL = orgURL
        self.clientID = clientID
        self.scopes = scopes
        self.dpop = dpop
        self.key = key
        self.cache = cache
        self.now = now
    }

    /// The org authorization server's token endpoint: Okta-scoped tokens come only from there (okta-core.md §H1).
    var tokenEndpoint: URL { OrgEndpoint(orgURL: orgURL).url(["oauth2", "v1", "token"]) }

    /// A token good for a while yet: this run's, the cached one, or a new one.
    func token() async throws(IdFlowError) -> ServiceAppToken {
        if let current, serves(current) { return current }
        let token = try await obtain(replacing: nil)
        current = token
        return token
    }

    /// A new token after `refused` was turned down (revoked, or expired on a server whose clock runs ahead): unless
    /// another caller already replaced it.
    func renew(refused: ServiceAppToken) async throws(IdFlowError) -> ServiceAppToken {
        if let current, current.accessToken != refused.accessToken, serves(current) { return current }
        let token = try await obtain(replacing: refused)
        current = token
        return token
    }

    private func serves(_ token: ServiceAppToken) -> Bool {
        token.serves(orgURL: orgURL, clientID: clientID, scopes: scopes, dpop: dpop, now: now())
    }

    /// Under the cache's lock: what another run just cached, else a token request, cached for the next run. A cache
    /// that cannot be written (a full disk) costs the next run a token request, never this run its token: unlike a
    /// user's rotated refresh token, the service app's token can always be asked for again with its key, so no room
    /// is reserved before the request and nothing is kept aside; the run goes on with a warning.
    private func obtain(replacing refused: ServiceAppToken?) async throws(IdFlowError) -> ServiceAppToken {
        guard let cache else { return try await request(previous: nil) }
        let lock = try await cache.lock()
        defer { lock.release() }
        let cached = try cache.load()
        if let cached, cached.accessToken != refused?.accessToken, serves(cached) { return cached }
        let token = try await request(previous: cached)
        do throws(IdFlowError) {
            try cache.save(token)
        } catch {
            warn(
                "warning: the service app's token could not be cached (\(error.message)); this run uses it, the next one asks for a new one"
            )
        }
        return token
    }

    /// The client-credentials grant with a fresh assertion (and proof, with the DPoP key of the previous token, so
    /// its nonce still fits; a new key when there was none).
    private func request(previous: ServiceAppToken?) async throws(IdFlowError) -> ServiceAppToken {
        let dpopKey = dpop ? (previous?.key ?? DPoPKey.generate()) : nil
        let nonceKey = DPoPNonces.Key.authorizationServer(tokenEndpoint)
        if let nonce = previous?.dpopNonce, http.serverNonces.nonce(for: nonceKey.slot) == nil {
            http.serverNonces.remember(nonce, for: nonceKey.slot)
        }
        let client = ClientCredentials(clientID: clientID, assertionKey: key, dpopKey: dpopKey, bearerInPlaceOfDPoP: bearerInPlaceOfDPoP)
        let issuedAt = now()
        let response = try await http.send(
            ClientCredentialsGrantRequest(tokenEndpoint: tokenEndpoint, client: client, scope: scopes.joined(separator: " ")))
        return ServiceAppToken(
            orgURL: orgURL.absoluteString, clientID: clientID, requestedScopes: scopes, tokenType: response.tokenType,
            accessToken: response.accessToken, scope: response.scope,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(response.expiresIn ?? 3600)),
            dpopKey: response.tokenType.lowercased() == "dpop" ? dpopKey?.stored : nil,
            dpopNonce: http.serverNonces.nonce(for: nonceKey.slot),
            dpopRequested: dpop)
    }
}
