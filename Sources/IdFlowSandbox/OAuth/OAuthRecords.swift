import Foundation

/// How `/authorize` returns its result (`response_mode`).
enum ResponseMode: String, Sendable {
    case query
    case fragment
    case formPost = "form_post"
}

/// A validated `/authorize` request: everything the code will be bound to.
struct AuthorizeRequest: Sendable {
    let server: HostedAuthorizationServer
    let client: OAuthClient
    let redirectURI: String
    let scopes: [String]
    let state: String
    let nonce: String?
    /// The S256 challenge; nil only for a confidential client that sent none.
    let codeChallenge: String?
    let responseMode: ResponseMode
}

/// An `/authorize` request waiting for the sign-in form (the `txn` of the page), 10 minutes.
struct PendingAuthorization: Sendable {
    let request: AuthorizeRequest
    let expiresAt: Date
}

/// An authorization code: single-use, 300 s. Kept after use so that a replay can be detected
/// and the tokens it produced revoked (RFC 6749 §4.1.2).
struct AuthorizationCodeRecord: Sendable {
    let request: AuthorizeRequest
    let userId: String
    let authTime: Date
    let expiresAt: Date
    var used = false
    var familyID: String?
}

/// A sign-in remembered by the `sid` cookie, for `prompt=none` and later `/authorize` calls.
struct BrowserSession: Sendable {
    let grant: SessionGrant
    let expiresAt: Date
}

/// Every token descended from one authorization code. Revoking the family (refresh-token reuse
/// after the grace period, code replay, revoking a refresh token) kills all of them at once.
struct TokenFamily: Sendable {
    let id: String
    let server: HostedAuthorizationServer
    let clientId: String
    let userId: String
    /// The scopes granted at `/authorize`; a refresh may ask for a subset.
    let scopes: [String]
    let authTime: Date
    var revoked = false
    /// The RFC 7638 thumbprint of the DPoP key the family's tokens are bound to (`dpopBoundAccessTokens`): a refresh
    /// must prove possession of the same key.
    var dpopThumbprint: String?
    /// The sign-in session the family descends from (native-sso.md §1.2); set by its first grant.
    var sid: String? = nil
    /// Whether the family's ID tokens stand for the session's device secret (`ds_hash`): it asked for `device_sso`,
    /// or it was exchanged for one (native-sso.md §1.3).
    var carriesDeviceSecret = false
}

/// What the sandbox remembers about an access token, keyed by its `jti`.
struct AccessTokenRecord: Sendable {
    let familyID: String
    let expiresAt: Date
    var revoked = false
}

/// A rotating refresh token (opaque). `rotatedAt` is when its successor was issued; it stays
/// usable for the grace period after that, and reusing it later is treated as theft.
struct RefreshTokenRecord: Sendable {
    let familyID: String
    var lastUsed: Date
    var rotatedAt: Date?
    var revoked = false
}

/// Tokens ready to be signed: the state decides, the controller signs (outside the actor). Not the client's
/// `TokenGrant`, which is a grant's request as the client posts it.
struct UnsignedTokens: Sendable {
    var accessToken: AccessTokenClaims
    var idToken: IDTokenClaims?
    let refreshToken: String?
    let scopes: [String]
    let expiresIn: Int
    /// MFA attestation (direct-auth.md §8): the answer carries the ID token alone, `access_token` null.
    var idTokenOnly = false
    /// A device secret minted with this grant (native-sso.md §1.2): only the first grant of a session has one.
    var deviceSecret: String? = nil
    /// RFC 8693's `issued_token_type`, for a token exchange's answer (native-sso.md §1.3).
    var issuedTokenType: String? = nil
}

/// The outcome of the sign-in form.
enum SignInResult: Sendable {
    /// The `txn` is unknown or older than 10 minutes.
    case expired
    /// Wrong username or password: show the form again.
    case rejected(AuthorizeRequest)
    /// Signed in: redirect with `code`, and remember the browser by `sid`.
    case signedIn(request: AuthorizeRequest, code: String, sid: String)
}
