import Hummingbird

/// The proof of possession a user's access token demands wherever the sandbox takes one (userinfo, the MyAccount
/// API): a DPoP-bound token (`cnf.jkt`) only with the `DPoP` scheme and a proof of its key, through the one proof
/// check `OktaResourceChallenge.requireProof`; an unbound token never with the `DPoP` scheme; a certificate-bound
/// token (`cnf.x5t#S256`) only over a connection that presented that certificate (RFC 8705 §3). Binding exists so
/// that a stolen token is useless without the key: a route that skipped this would take it as a plain Bearer token.
/// Routes that call it register with `takesUserToken`, so a test can walk them all.
enum UserTokenBinding {
    /// Returns when the token may be used on this request; throws `challenge`'s refusal for a DPoP misuse and
    /// `wrongCertificate` for a certificate-bound token without its certificate.
    static func check(
        _ request: Request, context: SandboxRequestContext, token: String, cnf: TokenConfirmation?, usesDPoP: Bool,
        challenge: OktaResourceChallenge, wrongCertificate: any Error, state: SandboxState
    ) async throws {
        var challenge = challenge
        if let bound = cnf?.keyThumbprint {
            challenge.scheme = "DPoP"
            try await challenge.requireProof(request, accessToken: token, boundTo: bound, usesDPoP: usesDPoP, state: state)
        } else if usesDPoP {
            challenge.scheme = "Bearer"
            throw challenge.refusing(.unauthorized, "invalid_token", "The presented access_token is not DPoP bound.")
        }
        guard await ClientCertificate.confirms(cnf, on: context.channel) else { throw wrongCertificate }
    }

    /// The MyAccount APIs' way to take a user's token (app authenticators, password): a live access token of an
    /// active user, presented with the proof its binding demands; a missing or dead token is 401 E0000011. The
    /// scopes (`scopes`, named in a DPoP challenge) are left to the caller, which checks them where Okta does.
    static func myAccountToken(_ request: Request, context: SandboxRequestContext, scopes: [String], state: SandboxState)
        async throws -> (AccessTokenClaims, UserRecord)
    {
        guard let (usesDPoP, token) = credentials(request.headers[.authorization]) else { throw OktaErrorResponse.invalidBearerToken }
        let key = try await state.signingKey()
        guard let claims = await key.verified(token, as: AccessTokenClaims.self), let user = await state.activeAccessToken(claims) else {
            throw OktaErrorResponse.invalidBearerToken
        }
        let challenge = OktaResourceChallenge(
            scheme: "DPoP", orgURL: await state.orgURL, scope: scopes.joined(separator: " "), resource: request.uri.path)
        try await check(
            request, context: context, token: token, cnf: claims.cnf, usesDPoP: usesDPoP, challenge: challenge,
            wrongCertificate: OktaErrorResponse.invalidBearerToken, state: state)
        return (claims, user)
    }

    /// The scheme and token of an `Authorization` header that uses `Bearer` or `DPoP` (any case); nil otherwise.
    static func credentials(_ authorization: String?) -> (usesDPoP: Bool, token: String)? {
        guard let authorization else { return nil }
        let scheme = authorization.prefix { $0 != " " }.lowercased()
        guard scheme == "bearer" || scheme == "dpop" else { return nil }
        return (scheme == "dpop", authorization.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces))
    }
}
