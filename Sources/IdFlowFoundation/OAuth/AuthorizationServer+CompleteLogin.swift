import Foundation

extension AuthorizationServer {
    /// Ends a login the same way whichever grant made it (`login-pkce` in every mode, `login-device`): the
    /// signing keys are fetched and the store's room for the tokens taken before the grant, the grant is made, its
    /// ID token is validated, and only then are the tokens stored and returned, so a failed check prints and stores
    /// nothing, and a store that cannot take the write is found before the grant.
    ///
    /// - Parameters:
    ///   - scope: the scope the login asked for; with `openid` in it, a response without an ID token is refused.
    ///   - nonce: the nonce the authorization request carried, or the grant that carries none.
    ///   - store: save to the profile's token store (false with `--no-store`).
    ///   - grant: makes the token request; runs after the keys are at hand.
    package func completeLogin(
        _ context: IdFlowContext, scope: String, nonce: NonceRequirement, store: Bool,
        grant: () async throws(IdFlowError) -> TokenResponse
    ) async throws(IdFlowError) -> TokenOutput {
        try await prepareToValidate(scope: scope)
        let reservation = store ? try TokenStore(directory: context.configuration.profileDirectory).reserve() : nil
        let output = try await acceptLogin(try await grant(), nonce: nonce, requestedScope: scope, storingInto: reservation, context)
        let who = output.idTokenClaims?["sub"]?.stringValue.map { " as \($0)" } ?? ""
        let saved = store ? "; tokens saved for profile \(context.configuration.profile)" : ""
        context.message("logged in\(who)\(saved)")
        return output
    }
}
