import Foundation

/// An issuer as anyone may see it, without being its client: its discovery document and the keys its
/// tokens are checked against. Checking a token's signature or fetching userinfo needs no client id, so
/// those start here; ``AuthorizationServer`` adds the client on top.
public struct DiscoveredIssuer: Sendable {
    public let issuer: URL
    public let metadata: OpenIDConfiguration
    public let http: HTTPClient
    public let validator: JWTValidator
    public let now: @Sendable () -> Date

    /// Discovers `issuer` (default: the configured one), through the state directory's caches.
    public static func discover(_ context: IdFlowContext, issuer: URL? = nil) async throws(IdFlowError) -> DiscoveredIssuer {
        let resolvedIssuer = try resolve(issuer, context)
        let cache = context.configuration.stateDirectory.appendingPathComponent("cache", isDirectory: true)
        let metadata = try await Discovery(http: context.http, cacheDirectory: cache, now: context.now).configuration(for: resolvedIssuer)
        let keys = JWKSCache(http: context.http, jwksURI: metadata.jwksURI, cacheDirectory: cache, now: context.now)
        return DiscoveredIssuer(
            issuer: resolvedIssuer, metadata: metadata, http: context.http, validator: JWTValidator(keys: keys), now: context.now)
    }

    /// The issuer to discover: a given one (checked like any URL idflow sends to), else the configured one.
    package static func resolve(_ issuer: URL?, _ context: IdFlowContext) throws(IdFlowError) -> URL {
        guard let issuer else { return try context.configuration.requireIssuer() }
        try TransportSecurity.check(issuer)
        return issuer
    }
}
