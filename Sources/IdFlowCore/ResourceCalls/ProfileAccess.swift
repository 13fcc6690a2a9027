import Foundation
import IdFlowFoundation

/// The profile's stored login, refreshed first when it is stale: what `api` sends and `token get` prints. The
/// refresh is `RefreshTokens` itself (lock held from reading the store to writing the rotated token), so a
/// rotation is saved exactly as `idflow refresh` saves it.
public struct ProfileAccess: Sendable {
    /// The issuer the tokens came from (pinned: a configured issuer that differs is refused).
    public var issuer: URL
    /// The tokens as they are now, refreshed or as stored.
    public var tokens: TokenOutput
    /// Whether the refresh token was there to use.
    public var canRefresh: Bool
    /// The key a DPoP-bound login is bound to; a refresh keeps it.
    var dpopKey: String?

    /// How the current access token is presented to a resource.
    func presentation() throws(IdFlowError) -> AccessTokenPresentation {
        try AccessTokenPresentation(tokens.response, dpopKey: dpopKey)
    }

    /// The stored login, nil when nothing is stored for the profile. With `refresh`, tokens that `condition`
    /// finds stale are refreshed first; a refresh the server refuses becomes exit 4 naming the login to run.
    public static func load(
        _ context: IdFlowContext, refreshing condition: RefreshTokens.Condition?
    ) async throws(IdFlowError) -> ProfileAccess? {
        let store = TokenStore(directory: context.configuration.profileDirectory)
        guard let stored = try store.load() else { return nil }
        var access = ProfileAccess(
            issuer: try stored.pinnedIssuer(context),
            tokens: TokenOutput(response: stored.tokens, expiresAt: stored.expiresAt, idTokenClaims: stored.idTokenClaims),
            canRefresh: stored.tokens.refreshToken != nil, dpopKey: stored.dpopKey)
        if let condition, condition.requiresGrant(stored, now: context.now()) {
            try await access.refresh(context, condition: condition)
        }
        return access
    }

    /// Refreshes through `RefreshTokens` when `condition` still holds under the profile's lock.
    public mutating func refresh(_ context: IdFlowContext, condition: RefreshTokens.Condition) async throws(IdFlowError) {
        guard canRefresh else {
            throw .authentication(
                "the access token of profile \(context.configuration.profile) has expired or was refused, and no refresh token is stored (was offline_access granted?)",
                hint: Self.loginHint(issuer: issuer.absoluteString, context))
        }
        do throws(IdFlowError) {
            tokens = try await RefreshTokens(condition: condition).run(context)
        } catch {
            guard error.exitStatus == .authentication else { throw error }
            throw .authentication(
                "the access token of profile \(context.configuration.profile) could not be refreshed: \(error.message)",
                hint: Self.loginHint(issuer: issuer.absoluteString, context))
        }
    }

    /// "log in again with `idflow login-pkce --issuer … [--profile …]`", the command that makes a new login for
    /// this profile (any login command will do; login-pkce is the one every provider supports). The issuer and
    /// scope may come from a server's answer: each value is single-quoted, and one outside its grammar
    /// (`SuggestedValue`) is left out rather than suggested.
    static func loginHint(issuer: String, _ context: IdFlowContext, scope: String? = nil) -> String {
        var command = "idflow login-pkce"
        if SuggestedValue.isIssuer(issuer) { command += " --issuer " + ShellWord.quote(issuer) }
        if context.configuration.profile != "default" { command += " --profile " + ShellWord.quote(context.configuration.profile) }
        if let scope, SuggestedValue.isScope(scope) { command += " --scope " + ShellWord.quote(scope) }
        return "log in with `\(command)` (or `idflow login-device` with the same flags), then run the command again"
    }
}
