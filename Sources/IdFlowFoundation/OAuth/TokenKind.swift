/// Which token of a login a request or flow works on; the raw value is OAuth's `token_type_hint`.
public enum TokenKind: String, Sendable, CaseIterable {
    case access = "access_token"
    case refresh = "refresh_token"
    case id = "id_token"
}

extension StoredTokens {
    /// The stored token of `kind`, nil when the login did not yield one (no `offline_access`, no `openid`).
    public func token(_ kind: TokenKind) -> String? {
        switch kind {
        case .access: tokens.accessToken
        case .refresh: tokens.refreshToken
        case .id: tokens.idToken
        }
    }
}
