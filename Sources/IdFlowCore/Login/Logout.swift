import Foundation

/// Revokes the profile's refresh token (which ends its whole token family on Okta) and access token, then
/// clears the store. If revocation fails the store is kept, so the user can try again. Logging out of a
/// profile with nothing stored succeeds with `"cleared": false`, as `rm -f` does: the state asked for holds.
public struct Logout: Sendable {
    public var clientSecret: Secret?

    public init(clientSecret: Secret? = nil) {
        self.clientSecret = clientSecret
    }

    public struct Result: Encodable, Sendable, Equatable {
        public var profile: String
        public var revoked: [String]
        /// Whether a stored login was removed; false when there was none to begin with.
        public var cleared: Bool
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Result {
        let tokenStore = TokenStore(directory: context.configuration.profileDirectory)
        return try await tokenStore.withLock(context) { () throws(IdFlowError) -> Result in
            guard let stored = try tokenStore.load() else {
                context.message("nothing is stored for profile \(context.configuration.profile); already logged out")
                return Result(profile: context.configuration.profile, revoked: [], cleared: false)
            }
            let server = try await AuthorizationServer.discover(context, for: stored, clientSecret: clientSecret)
            var revoked: [String] = []
            // The refresh token first: on Okta it ends the whole family, access tokens included.
            for kind in [TokenKind.refresh, .access] {
                guard let token = stored.token(kind) else { continue }
                try await server.revoke(token, kind: kind)
                revoked.append(kind.rawValue)
            }
            try tokenStore.clear()
            context.message("logged out of profile \(context.configuration.profile)")
            return Result(profile: context.configuration.profile, revoked: revoked, cleared: true)
        }
    }
}
