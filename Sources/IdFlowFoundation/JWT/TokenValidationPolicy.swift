import Foundation

/// What a token must satisfy beyond its signature: who issued it, for whom, for which login, and when.
public struct TokenValidationPolicy: Sendable {
    /// The signature algorithms accepted unless a caller narrows them: asymmetric only. `none` and `HS*` are
    /// refused by ``JWTValidator`` even if a caller adds them here.
    public static let defaultAllowedAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
    ]

    /// How far a token's times may be off unless a caller says otherwise; `doctor` warns about a clock further off.
    public static let defaultClockSkew: Duration = .seconds(120)

    /// Compared with `iss` as an exact string (no trailing-slash or case folding).
    public var issuer: String
    /// Must be `aud` or one of its members (and equal `azp` when the token carries one); nil skips the audience check.
    public var audience: String?
    /// Whether the token must echo a `nonce`; every caller says which grant it validates for, so no check is
    /// skipped by a forgotten argument.
    public var nonce: NonceRequirement
    /// When non-nil and the token carries `at_hash`, that hash must match this access token (OIDC Core §3.1.3.6, §3.2.2.9).
    public var accessToken: String?
    /// When non-nil and the token carries `ds_hash`, that hash must match this device secret, built as `at_hash` is
    /// (native-sso.md §1.2), so a secret swapped in transit is never kept.
    public var deviceSecret: String?
    public var allowedAlgorithms: Set<String>
    /// How far `exp`, `nbf` and `iat` may be off, to absorb clock differences between the issuer and this machine.
    public var clockSkew: Duration
    /// The time the token is judged at.
    public var now: Date

    public init(
        issuer: String, audience: String? = nil, nonce: NonceRequirement, accessToken: String? = nil,
        allowedAlgorithms: Set<String> = TokenValidationPolicy.defaultAllowedAlgorithms,
        clockSkew: Duration = TokenValidationPolicy.defaultClockSkew,
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

/// What an ID token's `nonce` claim must be (OIDC Core §3.1.3.7 item 11).
public enum NonceRequirement: Sendable, Equatable {
    /// The authorization request carried this nonce; the token must carry exactly it, and a token without one fails.
    case mustEqual(String)
    /// The grant has no authorization request a nonce could travel in, so there is nothing to compare: the
    /// claim is not checked (a nonce the server adds anyway is ignored). Every other check still applies.
    case notInThisGrant(NonceFreeGrant)
}

/// The grants that carry no nonce, named so that not checking one is a decision a reader can find.
public enum NonceFreeGrant: String, Sendable, Equatable {
    /// RFC 8628: the device authorization request has only `client_id` and `scope` (§3.1). What binds the tokens
    /// to this login instead is the device code, which only this client holds and the server redeems once.
    case deviceAuthorization = "device authorization grant"
    /// OIDC Core §12.2: an ID token issued for a refresh token has no new nonce.
    case refreshToken = "refresh token grant"
    /// `token verify`: a token checked on its own, outside any login of this client's.
    case standaloneVerification = "standalone verification"
    /// A push challenge (devices.md §5): the org signs it for the device, outside any login of this client's;
    /// what binds the answer to the sign-in is the challenge's `tx`, which the signed response repeats.
    case pushChallenge = "push challenge"
    /// A custom identity provider's complete step (custom-registration.md §3.3) issues the tokens itself,
    /// with no authorization request of this client's a nonce could travel in.
    case customRegistration = "custom registration"
    /// Okta Direct Authentication (direct-auth.md §3.1): the grant is a form POST to the token endpoint with no
    /// authorization request; the one-time code, `oob_code` or `mfa_token`, issued to this client, binds it.
    case directAuthentication = "direct authentication"
    /// RFC 8693 (native-sso.md §1.3): the exchange is a form POST with no authorization request; the device secret
    /// and the ID token it trades bind it.
    case tokenExchange = "token exchange"
    /// RFC 7523 §2.1: the signed assertion, whose `jti` is spent once, is the whole request.
    case jwtBearer = "JWT bearer grant"
}
