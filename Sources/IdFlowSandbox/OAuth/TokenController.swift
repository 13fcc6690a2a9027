import Foundation
import HTTPTypes
import Hummingbird

/// `POST {issuer}/v1/token`, `/v1/introspect` and `/v1/revoke` (form bodies, OAuth error shape).
struct TokenController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/token", .post, use: token)
        routes.oauth("/introspect", .post, use: introspect)
        routes.oauth("/revoke", .post, use: revoke)
    }

    /// The form and the authenticated client of a back-channel request.
    private func authenticatedForm(
        _ request: Request, context: SandboxRequestContext
    ) async throws -> (FormParameters, OAuthClient) {
        var request = request
        return try await authenticated(try await request.formBody(context: context), request: request, context: context)
    }

    /// The authenticated client of a form already read.
    private func authenticated(
        _ form: FormParameters, request: Request, context: SandboxRequestContext
    ) async throws -> (FormParameters, OAuthClient) {
        var form = form
        // A public client's interaction code grant may carry an empty `client_secret` (idx.md §6: Android sends
        // every field of the success form); it means no secret.
        if form["grant_type"] == "interaction_code", form["client_secret"]?.isEmpty == true {
            form = FormParameters(FormParameters.encode(form.pairs.filter { $0.name != "client_secret" }.map { ($0.name, $0.value) }))
        }
        let clients = state.configuration.oauthClients
        // The certificate is read only for a client that authenticates with it.
        let certificate =
            clients.contains { $0.id == form["client_id"] && $0.certificateCommonName != nil }
            ? await ClientCertificate.presented(on: context.channel) : nil
        let client = try ClientAuthentication.authenticate(
            form: form, authorization: request.headers[.authorization], clients: clients, certificate: certificate)
        return (form, client)
    }

    /// `authorization_code`, `interaction_code`, `refresh_token` and device code grants → the token response, `Cache-Control: no-store`;
    /// `client_credentials` is `ClientCredentialsGrant`'s. A client in `dpopBoundAccessTokens` must send a DPoP
    /// proof with every grant, and gets tokens bound to its key (`token_type` DPoP).
    @Sendable func token(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        var request = request
        let parsed = try await request.formBody(context: context)
        guard DirectAuthGrants.handles(parsed["grant_type"]) else {
            return try await issue(parsed, request: request, context: context, server: server)
        }
        // Every answer to a Direct Authentication grant is exactly `application/json`, a refusal of the client or of
        // its DPoP proof included: the Kotlin SDK reads no other (direct-auth.md §1).
        var response: Response
        do {
            response = try await issue(parsed, request: request, context: context, server: server)
        } catch {
            response = try OktaResponseMiddleware.render(error, request: request, context: context)
        }
        response.headers[.contentType] = DirectAuthWire.contentType
        return response
    }

    /// The grant of a form already read: the token response, or the error that refuses it.
    private func issue(
        _ parsed: FormParameters, request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        if parsed["grant_type"] == ClientCredentialsGrant.grantType {
            return try await ClientCredentialsGrant(state: state).respond(form: parsed, request: request, context: context, server: server)
        }
        // RFC 7523 for a service app: its assertion is its credential (native-sso.md §6).
        if parsed["grant_type"] == Self.jwtBearerGrant,
            let grant = try await JWTBearerGrant(state: state).grant(parsed, path: request.head.path ?? "/", server: server)
        {
            return try await Self.tokenResponse(grant, tokenType: "Bearer", state: state)
        }
        let (form, client) = try await authenticated(parsed, request: request, context: context)
        let dpopProof =
            state.configuration.dpopBoundAccessTokens.contains(client.id)
            ? try await TokenEndpointDPoP.proof(of: request, state: state) : nil
        let dpopThumbprint = dpopProof?.thumbprint
        if form["scope"]?.split(separator: " ").contains("interclient_access") == true,
            !state.configuration.isInterclientOrigin(client.id)
        {
            throw InterclientExchange.noScopeTrust
        }
        var grant: UnsignedTokens
        switch try await tokens(for: form, client: client, server: server, dpopThumbprint: dpopThumbprint) {
        case .tokens(let tokens): grant = tokens
        case .response(let response): return response
        }
        // The factors of the sign-in, for an app's assurance rule (native-sso.md §1.4).
        if let sid = grant.idToken?.sid, let amr = grant.idToken?.amr { await state.noteSessionFactors(sid: sid, amr: amr) }
        // The proof's `jti` is recorded only now, so a flood of failing grants stores nothing (issue 36).
        if let dpopProof { try await TokenEndpointDPoP.consume(dpopProof, state: state) }
        if client.certificateCommonName != nil, let certificate = await ClientCertificate.presented(on: context.channel) {
            grant.accessToken.cnf = TokenConfirmation(certificateThumbprint: certificate.thumbprint)
        }
        if let dpopThumbprint {
            grant.accessToken.cnf = TokenConfirmation(keyThumbprint: dpopThumbprint)
            await state.bindTokenFamily(accessTokenID: grant.accessToken.jti, dpopThumbprint: dpopThumbprint)
        }
        if grant.idTokenOnly, let idToken = grant.idToken {
            // As recorded (swift-authfoundation-token-mfa_attestation.json): no access token, so no `at_hash` either.
            let body: JSONObject = [
                "token_type": "Bearer", "expires_in": .int(0), "access_token": .null, "scope": "openid",
                "id_token": .string(try await state.signingKey().sign(idToken)),
            ]
            var response = Response.json(.object(body))
            response.headers[.cacheControl] = "no-store"
            response.headers[.pragma] = "no-cache"
            return response
        }
        return try await Self.tokenResponse(grant, tokenType: dpopThumbprint == nil ? "Bearer" : "DPoP", state: state)
    }

    /// The tokens `form`'s grant type gives the authenticated `client`, still unsigned, or (an interclient token) an
    /// answer of the grant's own.
    private func tokens(
        for form: FormParameters, client: OAuthClient, server: HostedAuthorizationServer, dpopThumbprint: String?
    ) async throws -> TokenExchangeGrant.Outcome {
        switch form["grant_type"] {
        case "authorization_code":
            let code = try Required.value(form["code"], else: OAuthErrorResponse.missingParameter("code"))
            return .tokens(
                try await state.exchangeCode(
                    code, client: client, server: server, redirectURI: form["redirect_uri"], codeVerifier: form["code_verifier"]))
        case "interaction_code":
            let interactionCode = try Required.value(
                form["interaction_code"], else: OAuthErrorResponse.missingParameter("interaction_code"))
            return .tokens(
                try await state.exchangeInteractionCode(
                    interactionCode, client: client, server: server, codeVerifier: form["code_verifier"]))
        case "refresh_token":
            let refreshToken = try Required.value(form["refresh_token"], else: OAuthErrorResponse.missingParameter("refresh_token"))
            let scopes = form["scope"].map { $0.split(separator: " ").map(String.init) }
            // RFC 9449 §5: a bound refresh token is used only with a proof of the same key.
            if let bound = await state.dpopThumbprint(ofRefreshToken: refreshToken), bound != dpopThumbprint {
                throw TokenEndpointDPoP.refusal(.refreshTokenBinding)
            }
            return .tokens(try await state.refresh(refreshToken, client: client, server: server, requestedScopes: scopes))
        case Self.jwtBearerGrant:
            return .tokens(try await maintenanceGrant(form, client: client, server: server))
        case DeviceAuthorizationController.grantType:
            guard client.allowsDeviceGrant else { throw DeviceAuthorizationController.unauthorizedClient }
            let deviceCode = try Required.value(form["device_code"], else: OAuthErrorResponse.missingParameter("device_code"))
            return .tokens(try await state.pollDeviceCode(deviceCode, client: client, server: server))
        case TokenExchangeGrant.grantType:
            return try await TokenExchangeGrant(state: state).exchange(form, client: client, server: server)
        case let type where DirectAuthGrants.handles(type):
            return .tokens(try await DirectAuthGrants(state: state).grant(form, client: client, server: server))
        case nil:
            throw OAuthErrorResponse.missingParameter("grant_type")
        default:
            throw OAuthErrorResponse(
                .badRequest, "unsupported_grant_type", "The grant type in the request isn't supported.")
        }
    }

    /// A grant's tokens signed, as the token response (`Cache-Control: no-store`).
    static func tokenResponse(_ grant: UnsignedTokens, tokenType: String, state: SandboxState) async throws -> Response {
        let (accessToken, idToken) = try await Self.sign(grant, state: state)
        var body: JSONObject = [
            "token_type": .string(tokenType),
            "expires_in": .int(grant.expiresIn),
            "access_token": .string(accessToken),
            "scope": .string(grant.scopes.joined(separator: " ")),
        ]
        if let refreshToken = grant.refreshToken { body["refresh_token"] = .string(refreshToken) }
        if let idToken { body["id_token"] = .string(idToken) }
        if let deviceSecret = grant.deviceSecret { body["device_secret"] = .string(deviceSecret) }
        if let issuedTokenType = grant.issuedTokenType { body["issued_token_type"] = .string(issuedTokenType) }
        var response = Response.json(.object(body))
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }

    static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// The jwt-bearer grant of a push authenticator (devices.md §7b): an ES256 assertion signed by
    /// the enrollment's proof-of-possession key buys an access token with maintenance scopes.
    private func maintenanceGrant(
        _ form: FormParameters, client: OAuthClient, server: HostedAuthorizationServer
    ) async throws -> UnsignedTokens {
        let assertion = try Required.text(form["assertion"], else: OAuthErrorResponse.missingParameter("assertion"))
        do {
            let header = try DeviceJWTVerifier.header(of: assertion)
            let (key, enrollment) = try await state.assertionKey(kid: header.kid)
            let claims = try await DeviceJWTVerifier.verify(assertion, with: key.publicKey, kid: key.kid, as: DeviceAssertionClaims.self)
            let scopes = form["scope"].map { $0.split(separator: " ").map(String.init) }
            return try await state.maintenanceGrant(claims, enrollment: enrollment, client: client, server: server, scopes: scopes)
        } catch let error as DeviceJWTVerifier.Rejected {
            throw SandboxState.invalidAssertion(error.reason)
        }
    }

    /// Signs a grant's tokens with the signing key: the access token, and the ID token bound to it by `at_hash`.
    static func sign(_ grant: UnsignedTokens, state: SandboxState) async throws -> (accessToken: String, idToken: String?) {
        let key = try await state.signingKey()
        let accessToken = try await key.sign(grant.accessToken)
        guard var idToken = grant.idToken else { return (accessToken, nil) }
        idToken.at_hash = SigningKey.atHash(accessToken)
        return (accessToken, try await key.sign(idToken))
    }

    /// The `token` form field introspect and revoke both require.
    private static func requiredToken(_ form: FormParameters) throws -> String {
        guard let token = form["token"], !token.isEmpty else {
            throw OAuthErrorResponse(.badRequest, "invalid_request", "The `token` parameter is required.")
        }
        return token
    }

    /// `{"active":false}` or the active token's metadata (access or refresh token).
    @Sendable func introspect(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        let (form, client) = try await authenticatedForm(request, context: context)
        let token = try Self.requiredToken(form)
        let key = try await state.signingKey()
        if let claims = await key.verified(token, as: AccessTokenClaims.self), claims.cid == client.id,
            let user = await state.activeAccessToken(claims, server: server)
        {
            var body: JSONObject = [
                "active": true, "token_type": "Bearer", "scope": .string(claims.scp.joined(separator: " ")),
                "client_id": .string(claims.cid), "username": .string(user.login), "exp": .int(claims.exp),
                "iat": .int(claims.iat), "sub": .string(claims.sub), "aud": .string(claims.aud),
                "iss": .string(claims.iss), "jti": .string(claims.jti), "uid": .string(claims.uid),
            ]
            if let cnf = claims.cnf { body["cnf"] = cnf.json }
            if let familyID = await state.familyID(ofAccessToken: claims.jti),
                let sid = await state.introspectedSessionID(familyID: familyID)
            {
                body["sid"] = .string(sid)
            }
            return .json(.object(body))
        }
        if let (family, user, expiresAt) = await state.activeRefreshToken(token, server: server),
            family.clientId == client.id
        {
            var body: JSONObject = [
                "active": true, "token_type": "Bearer", "scope": .string(family.scopes.joined(separator: " ")),
                "client_id": .string(family.clientId), "username": .string(user.login),
                "exp": .int(Int(expiresAt.timeIntervalSince1970)), "sub": .string(user.login), "uid": .string(user.id),
            ]
            if let sid = await state.introspectedSessionID(familyID: family.id) { body["sid"] = .string(sid) }
            return .json(.object(body))
        }
        // A device secret (native-sso.md §1.5): its session, while that lives.
        if let session = await state.session(ofDeviceSecret: token), let live = await state.liveSession(session.sid) {
            return .json([
                "active": true, "sid": .string(live.sid), "token_type": .string(SandboxState.deviceSecretTokenType),
                "exp": .int(Int((live.lastUsed + SandboxState.sessionIdleLifetime).timeIntervalSince1970)),
            ])
        }
        return .json(["active": false])
    }

    /// 200 with an empty body, even for an unknown token; a refresh token takes its family with it.
    @Sendable func revoke(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        let (form, client) = try await authenticatedForm(request, context: context)
        let token = try Self.requiredToken(form)
        let key = try await state.signingKey()
        if let claims = await key.verified(token, as: AccessTokenClaims.self) {
            await state.revokeAccessToken(jti: claims.jti, clientId: client.id)
        } else if let session = await state.session(ofDeviceSecret: token) {
            // Whatever the hint: the session ends, with every token minted under it (native-sso.md §1.5).
            await state.endSignInSession(sid: session.sid)
        } else {
            await state.revokeRefreshToken(token, clientId: client.id)
        }
        return .empty(.ok)
    }
}
