import Foundation

/// What a resource server checks of an access token besides its signature: that it is for this resource's
/// authorization server (iss, aud), unexpired by the sandbox clock, and still active at the authorization
/// server (not revoked, its family alive, its user active), as a resource that introspects would learn.
extension SandboxState {
    func resourceUser(for claims: AccessTokenClaims, server: HostedAuthorizationServer) -> UserRecord? {
        guard claims.iss == server.issuer(orgURL: orgURL), claims.aud == server.audience(orgURL: orgURL),
            TimeInterval(claims.exp) > clock.now.timeIntervalSince1970
        else { return nil }
        return activeAccessToken(claims, server: server)
    }
}
