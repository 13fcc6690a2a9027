import Foundation

/// What the sandbox remembers about a client-credentials access token, keyed by its `jti`: whose it is, where it
/// is valid, until when on the sandbox clock, and the DPoP key it is bound to.
struct ServiceAccessTokenRecord: Sendable {
    let clientId: String
    let server: HostedAuthorizationServer
    let scopes: [String]
    let expiresAt: Date
    let dpopThumbprint: String?
}
