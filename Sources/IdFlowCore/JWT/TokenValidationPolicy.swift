import Foundation

/// What a token must satisfy beyond its signature: who issued it, for whom, for which login, and when.
public struct TokenValidationPolicy: Sendable {
    /// The signature algorithms accepted unless a caller narrows them: asymmetric only. `none` and `HS*` are
    /// refused by ``JWTValidator`` even if a caller adds them here.
    public static let defaultAllowedAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
    ]

    /// Compared with `iss` as an exact string (no trailing-slash or case folding).
    public var issuer: String
    /// Must be `aud` or one of its members (and equal `azp` when the token carries one); nil skips the audience check.
    public var audience: String?
    /// When non-nil, the token's `nonce` must equal it; a token without `nonce` then fails.
    public var nonce: String?
    /// When non-nil and the token carries `at_hash`, that hash must match this access token (OIDC Core §3.1.3.6, §3.2.2.9).
    public var accessToken: String?
    public var allowedAlgorithms: Set<String>
    /// How far `exp`, `nbf` and `iat` may be off, to absorb clock differences between the issuer and this machine.
    public var clockSkew: Duration
    /// The time the token is judged at.
    public var now: Date

    public init(
        issuer: String, audience: String? = nil, nonce: String? = nil, accessToken: String? = nil,
        allowedAlgorithms: Set<String> = TokenValidationPolicy.defaultAllowedAlgorithms, clockSkew: Duration = .seconds(120),
        now: Date = Date()
    ) {
        self.issuer = issuer
        self.audience = audience
        self.nonce = nonce
        self.accessToken = accessToken
        self.allowedAlgorithms = allowedAlgorithms
        self.clockSkew = clockSkew
        self.now = now
    }
}
