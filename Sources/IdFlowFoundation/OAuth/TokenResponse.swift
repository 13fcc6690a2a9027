import Foundation

/// The token endpoint's success body (RFC 6749 §5.1), kept with the protocol's own snake_case names.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var tokenType: String
    public var accessToken: String
    public var expiresIn: Int?
    public var scope: String?
    public var refreshToken: String?
    public var idToken: String?
    /// Native SSO's `device_secret` (native-sso.md §1.2): with the ID token it buys another app's tokens, so it is
    /// kept with the login (0600) and masked in every trace.
    public var deviceSecret: String?
    /// RFC 8693 §2.2.1: what a token exchange issued (`access_token` may then hold an interclient token, say).
    public var issuedTokenType: String?

    enum CodingKeys: String, CodingKey {
        case tokenType = "token_type"
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case scope
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case deviceSecret = "device_secret"
        case issuedTokenType = "issued_token_type"
    }

    public init(
        tokenType: String, accessToken: String, expiresIn: Int?, scope: String?, refreshToken: String?, idToken: String?,
        deviceSecret: String? = nil, issuedTokenType: String? = nil
    ) {
        self.tokenType = tokenType
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.scope = scope
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.deviceSecret = deviceSecret
        self.issuedTokenType = issuedTokenType
    }
}

/// What `login-pkce` and `refresh` print: the token response plus `expires_at` (ISO 8601) and the
/// validated `id_token_claims`. A sign-in with a password wraps it (`SignInOutput`) to say what became of the password.
public struct TokenOutput: Encodable, Sendable, Equatable {
    public var response: TokenResponse
    public var expiresAt: Date?
    public var idTokenClaims: JSONValue?

    public init(response: TokenResponse, expiresAt: Date?, idTokenClaims: JSONValue?) {
        self.response = response
        self.expiresAt = expiresAt
        self.idTokenClaims = idTokenClaims
    }

    enum CodingKeys: String, CodingKey {
        case expiresAt = "expires_at"
        case idTokenClaims = "id_token_claims"
    }

    public func encode(to encoder: any Encoder) throws {
        try response.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(expiresAt.map(ISO8601.string), forKey: .expiresAt)
        try container.encodeIfPresent(idTokenClaims, forKey: .idTokenClaims)
    }
}

/// ISO 8601 in UTC with seconds, as scripts and `date -d` read it.
///
/// Foundation's `ISO8601FormatStyle` (Swift, no ICU) rather than `ISO8601DateFormatter`, whose first use sets up
/// an ICU calendar and formatter: about a millisecond of the start-up of every command that prints a time.
public enum ISO8601 {
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// With or without fractional seconds, `Z` or an offset.
    public static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
