import Foundation
import IdFlowFoundation

/// Revokes the profile's Native SSO device secret (which ends the session it shares with other apps, so the secret
/// forgotten here cannot buy tokens elsewhere), refresh token (which ends its whole token family on Okta) and access
/// token, then clears the store. If revocation fails the store is kept, so the user can try again, unless `local` says to
/// forget the login anyway (a provider that refuses a public client's revocation would otherwise leave it stored
/// for good). Logging out of a profile with nothing stored succeeds with `"cleared": false`, as `rm -f` does.
public struct Logout: Sendable {
    public var clientSecret: Secret?
    /// `--local`: clear the store even when the server refuses to revoke, reporting the refusal.
    public var local: Bool

    public init(clientSecret: Secret? = nil, local: Bool = false) {
        self.clientSecret = clientSecret
        self.local = local
    }

    public struct Result: Encodable, Sendable, Equatable {
        public var profile: String
        public var revoked: [String]
        /// Whether a stored login was removed; false when there was none to begin with.
        public var cleared: Bool
        /// With `--local`: each token the server did not revoke, and why (it may stay valid until it expires).
        public var notRevoked: [NotRevoked]?
    }

    public struct NotRevoked: Encodable, Sendable, Equatable {
        public var token: String
        public var error: String
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Result {
        let tokenStore = TokenStore(directory: context.configuration.profileDirectory)
        return try await tokenStore.withLock(context) { () throws(IdFlowError) -> Result in
            guard let stored = try tokenStore.load() else {
                context.message("nothing is stored for profile \(context.configuration.profile); already logged out")
                return Result(profile: context.configuration.profile, revoked: [], cleared: false, notRevoked: local ? [] : nil)
            }
            let secret = try context.clientSecret(for: stored.clientId, given: clientSecret)
            var revoked: [String] = []
            var notRevoked: [NotRevoked] = []
            do throws(IdFlowError) {
                let server = try await AuthorizationServer.discover(context, for: stored, clientSecret: secret)
                // The device secret, then the refresh token: on Okta it ends the whole family, access tokens included.
                let tokens =
                    [("device_secret", stored.tokens.deviceSecret)] + [TokenKind.refresh, .access].map { ($0.rawValue, stored.token($0)) }
                for case (let hint, let token?) in tokens {
                    do throws(IdFlowError) {
                        try await server.revoke(token, hint: hint)
                        revoked.append(hint)
                    } catch {
                        guard local else { throw error }
                        notRevoked.append(NotRevoked(token: hint, error: error.message))
                    }
                }
            } catch {
                guard local else {
                    throw error.addingHint("the login is still stored: `idflow logout --local` forgets it here anyway")
                }
                if notRevoked.isEmpty { notRevoked.append(NotRevoked(token: "all", error: error.message)) }
            }
            try tokenStore.clear()
            for refusal in notRevoked {
                context.notice("warning: the \(refusal.token) token was not revoked (\(refusal.error)); it stays valid until it expires")
            }
            context.message("logged out of profile \(context.configuration.profile)\(notRevoked.isEmpty ? "" : " (locally)")")
            return Result(
                profile: context.configuration.profile, revoked: revoked, cleared: true, notRevoked: local ? notRevoked : nil)
        }
    }
}
