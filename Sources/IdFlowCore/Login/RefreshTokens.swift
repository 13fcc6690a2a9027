import Foundation
import IdFlowFoundation

/// The refresh-token grant with rotation saved safely: the profile's lock is held from reading the store to
/// writing the rotated token, so concurrent runs each use the newest token and none is lost.
public struct RefreshTokens: Sendable {
    /// Save the result (false with `--no-store`).
    public var store: Bool
    /// A refresh token given by the caller (`--refresh-token-stdin`): the store is neither read nor written.
    public var givenRefreshToken: Secret?
    public var clientSecret: Secret?
    /// Whether the grant is made at all: always (`refresh`), or only when the stored token is stale (`api`,
    /// `token get`), judged under the lock so that a run that waited uses what its predecessor refreshed.
    public var condition: Condition

    public init(store: Bool = true, givenRefreshToken: Secret? = nil, clientSecret: Secret? = nil, condition: Condition = .always) {
        self.store = store
        self.givenRefreshToken = givenRefreshToken
        self.clientSecret = clientSecret
        self.condition = condition
    }

    /// When the stored tokens are refreshed.
    public enum Condition: Sendable, Equatable {
        /// Every run makes the grant (`idflow refresh`).
        case always
        /// Only when the stored token of `kind` (access or ID) expires within `minimumTTL` seconds of now, or is
        /// the access token `refused` (a resource answered 401 to it). Otherwise the stored tokens are returned
        /// as they are: another run refreshed them already, or they are still good.
        case whenStale(minimumTTL: TimeInterval, refused: String? = nil, kind: TokenKind = .access)

        /// Whether `stored` must be refreshed at `now`. A token with no known expiry is taken as good until a
        /// resource refuses it.
        public func requiresGrant(_ stored: StoredTokens, now: Date) -> Bool {
            guard case .whenStale(let minimumTTL, let refused, let kind) = self else { return true }
            if let refused, stored.tokens.accessToken == refused { return true }
            guard let expiry = stored.expiry(of: kind) else { return kind == .id && stored.tokens.idToken == nil }
            return expiry.timeIntervalSince(now) <= minimumTTL
        }
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        // Only a scope the user chose is sent; without one the server keeps the original grant.
        let scope = context.configuration.explicitScope
        if let givenRefreshToken {
            var secret = clientSecret
            if secret == nil { secret = try context.clientSecret(file: nil) }
            let server = try await AuthorizationServer.discover(context, clientSecret: secret)
            try await server.prepareToValidate(scope: scope)
            let response = try await server.tokenEndpoint.refresh(givenRefreshToken.value, scope: scope)
            let claims = try await server.validateRefreshedIDToken(in: response, stored: nil)
            return server.result(response, claims: claims, previous: nil).0
        }
        let tokenStore = TokenStore(directory: context.configuration.profileDirectory)
        return try await tokenStore.withLock(context) { () throws(IdFlowError) -> TokenOutput in
            // Read under the lock: a run that waited sees the token the previous holder rotated in (or the one a
            // failed save left in a recovery file, which taking the lock moved back into the store).
            let stored = try tokenStore.loadRequired(profile: context.configuration.profile)
            guard condition.requiresGrant(stored, now: context.now()) else {
                return TokenOutput(response: stored.tokens, expiresAt: stored.expiresAt, idTokenClaims: stored.idTokenClaims)
            }
            guard let refreshToken = stored.tokens.refreshToken else {
                throw .localState(
                    "profile \(context.configuration.profile) has no refresh token (was offline_access granted?)",
                    hint: "log in again with `idflow login-pkce` and the offline_access scope")
            }
            // The room for the rotated token is taken first: a store that cannot take the write is refused here,
            // while the stored refresh token still works.
            let reservation = store ? try tokenStore.reserve() : nil
            let server = try await AuthorizationServer.discover(
                context, for: stored, clientSecret: try context.clientSecret(for: stored.clientId, given: clientSecret))
            // Without a scope of its own the grant keeps the original one, ID token included.
            let requestedScope = scope ?? stored.tokens.scope
            // Everything that can fail without the server's help happens before the grant: after it, the
            // server has rotated the refresh token. On failure up to here nothing is written.
            try await server.prepareToValidate(scope: requestedScope)
            let response = try await server.tokenEndpoint.refresh(refreshToken, scope: scope)
            let claims: JSONValue?
            do throws(IdFlowError) {
                claims = try await server.validateRefreshedIDToken(in: response, stored: stored.idTokenClaims)
            } catch {
                try keepRotatedRefreshToken(response, replacing: refreshToken, in: stored, into: reservation, tokenStore, context)
                throw error
            }
            let (output, record) = server.result(response, claims: claims, previous: stored)
            if let reservation {
                try tokenStore.save(record, into: reservation, context)
            } else if response.refreshToken != nil, response.refreshToken != refreshToken {
                context.notice(
                    "warning: --no-store: the rotated refresh token was not saved; the stored one stops working after the grace period")
            }
            context.message(
                "refreshed the tokens of profile \(context.configuration.profile); access token valid until \(output.expiresAt.map(ISO8601.string) ?? "unknown")"
            )
            return output
        }
    }

    /// After a grant whose ID token failed the checks: the access and ID tokens are untrusted and dropped, but
    /// the new refresh token is kept, because the server has already retired the one it replaced and the next
    /// refresh after the grace period would otherwise be taken for a stolen token (and end the whole family).
    private func keepRotatedRefreshToken(
        _ response: TokenResponse, replacing presented: String, in stored: StoredTokens, into reservation: SecureFile.Reservation?,
        _ tokenStore: TokenStore, _ context: IdFlowContext
    ) throws(IdFlowError) {
        guard let reservation, let rotated = response.refreshToken, rotated != presented else { return }
        var kept = stored
        kept.tokens.refreshToken = rotated
        kept.savedAt = context.now()
        try tokenStore.save(kept, into: reservation, context)
        context.notice(
            "the refreshed tokens failed the checks and were dropped; the rotated refresh token was saved for profile \(context.configuration.profile), so the next refresh can still work"
        )
    }
}
