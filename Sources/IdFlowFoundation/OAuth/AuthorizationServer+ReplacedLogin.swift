import Foundation

extension AuthorizationServer {
    /// A profile keeps one login, so a new login of another user (`register --idp` for a new person, `login-pkce`
    /// as someone else) replaces the stored one. Said as a warning, with how to keep both, because the user it
    /// replaces may be the one the next `refresh` or `api` call was meant for. Subjects unknown on either side (no
    /// ID token) say nothing: nothing shows they differ.
    static func warnIfReplacing(_ previous: StoredTokens?, with claims: JSONValue?, _ context: IdFlowContext) {
        guard let before = previous?.idTokenClaims?["sub"]?.stringValue, let after = claims?["sub"]?.stringValue, before != after
        else { return }
        let profile = context.configuration.profile
        context.notice(
            "warning: this login (\(after)) replaces the stored login of \(before) in profile \(profile); to keep both, "
                + "log in as each under a profile of its own (--profile NAME, a profile of idflow's config.yaml), or pass "
                + "--no-store to print the tokens without saving them")
    }
}
