import Foundation

/// What service apps (okta-core.md §H) keep: the resolved apps, the replay records of client assertions and
/// DPoP proofs, the DPoP nonce, and client-credentials tokens.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct OAuthServiceStore: Sendable {
    /// The service apps' resolution, started once so racing requests share it.
    var appsTask: Task<ServiceAppRegistry, any Error>?
    /// The default service app with its key file, once `SandboxServer.start` wrote it (for `info`).
    var appInfo: ServiceAppInfo?
    /// Accepted client assertions' `jti`s (per client) until their `exp`, and DPoP proofs' until they are too old.
    var usedClientAssertionIDs: [String: Date] = [:]
    var usedDPoPProofIDs: [String: Date] = [:]
    var dpopNonces = DPoPNonceRotation()
    /// Client-credentials access tokens by `jti`.
    var accessTokens: [String: ServiceAccessTokenRecord] = [:]
    /// Each issued client-credentials token's value → its `jti` (`rememberServiceAccessToken`).
    var accessTokenIDs: [String: String] = [:]

    /// Drops replay records that can no longer match and expired tokens with their values.
    mutating func purge(now: Date) {
        usedClientAssertionIDs = usedClientAssertionIDs.filter { $0.value > now }
        usedDPoPProofIDs = usedDPoPProofIDs.filter { $0.value > now }
        accessTokens = accessTokens.filter { $0.value.expiresAt > now }
        let kept = accessTokens
        accessTokenIDs = accessTokenIDs.filter { kept[$0.value] != nil }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        [
            "usedClientAssertionIDs": usedClientAssertionIDs.count,
            "usedDPoPProofIDs": usedDPoPProofIDs.count,
            "serviceAccessTokens": accessTokens.count,
            "serviceAccessTokenIDs": accessTokenIDs.count,
        ]
    }
}
