import Foundation

/// The refresh-token grant with rotation saved safely: the profile's lock is held from reading the store to
/// writing the rotated token, so concurrent runs each use the newest token and none is lost.
public struct RefreshTokens: Sendable {
    /// Save the result (false with `--no-store`).
    public var store: Bool
    /// A refresh token given by the caller (`--refresh-token-stdin`): the store is neither read nor written.
    public var givenRefreshToken: Secret?
    public var clientSecret: Secret?

    public init(store: Bool = true, givenRefreshToken: Secret? = nil, clientSecret: Secret? = nil) {
        self.store = store
        self.givenRefreshToken = givenRefreshToken
        self.clientSecret = clientSecret
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        // Only a scope the user chose is sent; without one the server keeps the original grant.
        let scope = context.configuration.explicitScope
        if let givenRefreshToken {
            let server = try await AuthorizationServer.discover(context, clientSecret: clientSecret)
            let response = try await server.tokenEndpoint.refresh(givenRefreshToken.value, scope: scope)
            let claims = try await server.validateIDToken(in: response, nonce: nil)
            return server.result(response, claims: claims, previous: nil).0
        }
        let tokenStore = TokenStore(directory: context.configuration.profileDirectory)
        return try await tokenStore.withLock { () throws(IdFlowError) -> TokenOutput in
            // Read under the lock: a run that waited sees the token the previous holder rotated in.
            let stored = try tokenStore.loadRequired(profile: context.configuration.profile)
            guard let refreshToken = stored.tokens.refreshToken else {
                throw .localState(
                    "profile \(context.configuration.profile) has no refresh token (was offline_access granted?)",
                    hint: "log in again with `idflow login-pkce` and the offline_access scope")
            }
            let server = try await AuthorizationServer.discover(context, for: stored, clientSecret: clientSecret)
            // On failure nothing is written: the stored tokens stay as they were.
            let response = try await server.tokenEndpoint.refresh(refreshToken, scope: scope)
            let claims = try await server.validateIDToken(in: response, nonce: nil)
            if let claims, let before = stored.idTokenClaims?["sub"], claims["sub"] != before {
                throw .security("the refreshed ID token is for another subject than the stored one", hint: "log in again")
            }
            let (output, record) = server.result(response, claims: claims, previous: stored)
            if store {
                try tokenStore.save(record)
            } else if response.refreshToken != nil, response.refreshToken != refreshToken {
                context.message(
                    "warning: --no-store: the rotated refresh token was not saved; the stored one stops working after the grace period")
            }
            context.message(
                "refreshed the tokens of profile \(context.configuration.profile); access token valid until \(output.expiresAt.map(ISO8601.string) ?? "unknown")"
            )
            return output
        }
    }
}
