import Foundation
import HTTPTypes
import Hummingbird

/// `grant_type=client_credentials` (okta-core.md §H1, §H2).
///
/// At the org authorization server only service apps, with `private_key_jwt`, for the `okta.*` scopes granted to
/// them. At the default custom authorization server also the confidential client (client secret), for the custom
/// scopes that server defines (the protected resource's), so `idflow login-client` has something to talk to.
/// Tokens are DPoP-bound when the app requires DPoP (`requireDPoP`) or the client is in `dpopBoundAccessTokens`.
struct ClientCredentialsGrant {
    let state: SandboxState

    static let grantType = "client_credentials"

    static let orgServerNeedsPrivateKeyJWT = ClientAssertionVerifier.invalid(
        "Client Credentials requests to the Org Authorization Server must use the private_key_jwt token_endpoint_auth_method.")
    static let noScopes = OAuthErrorResponse(.badRequest, "invalid_scope", "No scopes were requested.")
    static let openIDScope = OAuthErrorResponse(.badRequest, "invalid_scope", "Cannot request 'openid' scopes using client credentials.")
    static let noneAllowed = OAuthErrorResponse(.badRequest, "consent_required", "You are not allowed any of the requested scopes.")
    static let selfScope = OAuthErrorResponse(
        .badRequest, "client_credentials_self_scope_requested", "The 'client_credentials' grant type may not request .self scopes.")
    static let invalidScope = OAuthErrorResponse(
        .badRequest, "invalid_scope",
        "The requested scope is invalid, unknown, malformed, or exceeds the scope granted by the resource owner.")
    static let unauthorizedClient = OAuthErrorResponse(
        .badRequest, "unauthorized_client",
        "The client is not authorized to use the provided grant type. Configured grant types: [authorization_code, refresh_token].")

    /// The scopes the default authorization server grants to client credentials: the custom ones it defines.
    static let customServerScopes = [ProtectedResource.adminScope]

    /// Who asked: a service app (assertion) or an OAuth client (secret).
    private struct Caller {
        let clientId: String
        /// The scopes the caller may get here.
        let grantable: [String]
        /// Without the requirement a proof is ignored and the token is Bearer, as Okta answers (§H4).
        let requiresDPoP: Bool
    }

    func respond(form: FormParameters, request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer) async throws
        -> Response
    {
        let caller = try await authenticate(form: form, request: request, context: context, server: server)
        let scopes = try Self.grantedScopes(requested: form["scope"], grantable: caller.grantable, server: server)
        var thumbprint: String?
        if caller.requiresDPoP {
            thumbprint = try await TokenEndpointDPoP.thumbprint(of: request, state: state)
        }
        let claims = await state.issueServiceAccessToken(
            clientId: caller.clientId, scopes: scopes, server: server, dpopThumbprint: thumbprint)
        let accessToken = try await state.signingKey().sign(claims)
        await state.rememberServiceAccessToken(accessToken, id: claims.jti)
        var response = Response.json([
            "token_type": .string(thumbprint == nil ? "Bearer" : "DPoP"),
            "expires_in": .int(SandboxState.serviceAccessTokenLifetime),
            "access_token": .string(accessToken),
            "scope": .string(scopes.joined(separator: " ")),
        ])
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }

    /// The client assertion at either server; a client secret only at the default one.
    private func authenticate(form: FormParameters, request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer)
        async throws -> Caller
    {
        if let assertion = form["client_assertion"] {
            guard form["client_assertion_type"] == ClientAssertionVerifier.type else { throw ClientAssertionVerifier.invalidType }
            let registry = try await state.serviceAppRegistry()
            let tokenURLs = await state.endpointURLs(path: request.head.path ?? "/")
            let (app, jti, expiresAt) = try await ClientAssertionVerifier.verify(
                assertion, registry: registry, tokenURLs: tokenURLs, now: await state.now)
            if let formID = form["client_id"], formID != app.clientId { throw ClientAssertionVerifier.unknownIssuer }
            let replayID = ClientAssertionVerifier.replayID(jti: jti, assertion: assertion)
            guard await state.consumeAssertionID(replayID, clientId: app.clientId, expiresAt: expiresAt) else {
                throw ClientAssertionVerifier.replayed
            }
            let grantable = server == .org ? app.scopes : Self.customServerScopes
            return Caller(clientId: app.clientId, grantable: grantable, requiresDPoP: app.requireDPoP)
        }
        guard server != .org else { throw Self.orgServerNeedsPrivateKeyJWT }
        let client = try ClientAuthentication.authenticate(
            form: form, authorization: request.headers[.authorization], clients: state.configuration.oauthClients)
        guard client.secret != nil else { throw Self.unauthorizedClient }
        return Caller(
            clientId: client.id, grantable: Self.customServerScopes,
            requiresDPoP: state.configuration.dpopBoundAccessTokens.contains(client.id))
    }

    /// The requested scopes the caller holds, in the order asked; refusals as §H1 lists them.
    static func grantedScopes(requested: String?, grantable: [String], server: HostedAuthorizationServer) throws -> [String] {
        let scopes = (requested ?? "").split(separator: " ").map(String.init)
        guard !scopes.isEmpty else { throw noScopes }
        if scopes.contains("openid") { throw openIDScope }
        if scopes.contains(where: { $0.hasSuffix(".self") }) { throw selfScope }
        if server != .org, scopes.contains(where: { !customServerScopes.contains($0) }) { throw invalidScope }
        var granted: [String] = []
        for scope in scopes where grantable.contains(scope) && !granted.contains(scope) { granted.append(scope) }
        guard !granted.isEmpty else { throw noneAllowed }
        return granted
    }
}
