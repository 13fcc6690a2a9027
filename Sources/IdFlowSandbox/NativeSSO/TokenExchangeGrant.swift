import Foundation
import Hummingbird

/// `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693) on the org and `default` servers, told
/// apart by its token types (native-sso.md §5): a device secret with an ID token is Native SSO (§1.3), an access
/// token with an ID token asking for an interclient token is Native-to-Web SSO (§2.2).
struct TokenExchangeGrant {
    let state: SandboxState

    static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
    static let interclientTokenType = "urn:okta:params:oauth:token-type:interclient_token"
    /// RFC 8693 §3's types and Okta's own (native-sso.md §4): a type outside these is not supported at all.
    static let knownTypes: Set<String> = [
        idTokenType, accessTokenType, interclientTokenType, SandboxState.deviceSecretTokenType,
        "urn:ietf:params:oauth:token-type:refresh_token", "urn:ietf:params:oauth:token-type:jwt",
        "urn:ietf:params:oauth:token-type:saml1", "urn:ietf:params:oauth:token-type:saml2",
    ]

    // The recorded refusals (native-sso.md §1.6, §2.4), word for word.
    static let notSupported = OAuthErrorResponse(
        .badRequest, "unsupported_grant_type", "'urn:ietf:params:oauth:grant-type:token-exchange' grant type is not supported.")
    static let invalidActorToken = OAuthErrorResponse(.badRequest, "invalid_request", "'actor_token' is invalid.")
    static let invalidActorTokenType = OAuthErrorResponse(
        .badRequest, "invalid_request", "'actor_token_type' is invalid or not supported.")
    static let invalidSubjectToken = OAuthErrorResponse(.badRequest, "invalid_request", "'subject_token' is invalid.")
    static let invalidSubjectTokenType = OAuthErrorResponse(
        .badRequest, "invalid_request", "'subject_token_type' is invalid or not supported.")
    static let sessionEnded = OAuthErrorResponse(
        .badRequest, "invalid_grant", "The 'subject_token' either expired or the session associated with it was terminated.")
    static let invalidAudience = OAuthErrorResponse(
        .badRequest, "invalid_target", "Token Exchange requests must include a valid audience of the authorization server.")
    static let assuranceNotMet = OAuthErrorResponse(.badRequest, "invalid_grant", "The client's assurance requirements are not met.")
    static let invalidRequestedTokenType = OAuthErrorResponse(
        .badRequest, "invalid_request", "'requested_token_type' is invalid or not supported.")
    static let invalidScope = OAuthErrorResponse(
        .badRequest, "invalid_scope", "One or more scopes are not configured for the authorization server resource.")

    static func typeMismatch(actor: String, subject: String) -> OAuthErrorResponse {
        OAuthErrorResponse(
            .badRequest, "invalid_request", "When 'actor_token_type' is '\(actor)', 'subject_token_type' must be '\(subject)'.")
    }

    /// What an exchange answers: tokens to sign like any grant's, or a finished response (`N_A`).
    enum Outcome {
        case tokens(UnsignedTokens)
        case response(Response)
    }

    /// Checks in native-sso.md §5's order: the client may exchange, the actor's type, the subject's type, then the
    /// profile's own checks.
    func exchange(_ form: FormParameters, client: OAuthClient, server: HostedAuthorizationServer) async throws -> Outcome {
        guard state.configuration.allowsTokenExchange(client.id) else { throw Self.notSupported }
        guard let actorToken = form["actor_token"], !actorToken.isEmpty else { throw Self.invalidActorToken }
        guard let actorType = form["actor_token_type"], Self.knownTypes.contains(actorType) else { throw Self.invalidActorTokenType }
        guard let subjectType = form["subject_token_type"], Self.knownTypes.contains(subjectType) else {
            throw Self.invalidSubjectTokenType
        }
        guard let subjectToken = form["subject_token"], !subjectToken.isEmpty else { throw Self.invalidSubjectToken }
        switch actorType {
        case SandboxState.deviceSecretTokenType:
            guard subjectType == Self.idTokenType else { throw Self.typeMismatch(actor: actorType, subject: Self.idTokenType) }
            return .tokens(
                try await nativeSSO(form, deviceSecret: actorToken, idToken: subjectToken, client: client, server: server))
        case Self.accessTokenType:
            guard subjectType == Self.idTokenType else { throw Self.typeMismatch(actor: actorType, subject: Self.idTokenType) }
            guard form["requested_token_type"] == Self.interclientTokenType else { throw Self.invalidRequestedTokenType }
            return .response(
                try await InterclientExchange(state: state).exchange(
                    form, accessToken: actorToken, idToken: subjectToken, client: client, server: server))
        default:
            throw Self.invalidActorTokenType
        }
    }

    /// native-sso.md §1.3: the second app's tokens, in the first app's session.
    private func nativeSSO(
        _ form: FormParameters, deviceSecret: String, idToken: String, client: OAuthClient, server: HostedAuthorizationServer
    ) async throws -> UnsignedTokens {
        let orgURL = await state.orgURL
        guard form["audience"] == server.audience(orgURL: orgURL) else { throw Self.invalidAudience }
        if let requested = form["requested_token_type"], requested != Self.accessTokenType { throw Self.invalidRequestedTokenType }
        let scopes = (form["scope"] ?? "openid").split(separator: " ").map(String.init)
        guard !scopes.isEmpty, scopes.allSatisfy(server.scopesSupported.contains) else { throw Self.invalidScope }
        // An expired ID token is still good while its session lives (native-sso.md §1.4): the signature and the issuer
        // are checked, not `exp`.
        guard let claims = try await state.signingKey().verified(idToken, as: IDTokenClaims.self),
            claims.iss == server.issuer(orgURL: orgURL), let sid = claims.sid
        else { throw Self.invalidSubjectToken }
        return try await state.exchangeDeviceSecret(
            deviceSecret, sid: sid, subject: claims.sub, client: client, server: server, scopes: scopes)
    }
}

extension SandboxState {
    /// The Native SSO exchange's state checks and its tokens, in one step of the actor: the secret is known, stands for
    /// the ID token's session, which lives; the app's assurance rule holds (native-sso.md §1.3, §1.4).
    func exchangeDeviceSecret(
        _ secret: String, sid: String, subject: String, client: OAuthClient, server: HostedAuthorizationServer, scopes: [String]
    ) throws -> UnsignedTokens {
        noteRecordActivity()
        guard let known = session(ofDeviceSecret: secret) else { throw TokenExchangeGrant.invalidActorToken }
        guard known.sid == sid, known.userId == subject else { throw TokenExchangeGrant.invalidSubjectToken }
        guard let session = liveSession(sid) else { throw TokenExchangeGrant.sessionEnded }
        if configuration.nativeSSO.requireMFA.contains(client.id), !session.hadMFA { throw TokenExchangeGrant.assuranceNotMet }
        oauth.sessions[sid]?.lastUsed = clock.now
        let family = TokenFamily(
            id: RandomToken.string(count: 20), server: server, clientId: client.id, userId: session.userId, scopes: scopes,
            authTime: session.authTime, sid: sid, carriesDeviceSecret: true)
        oauth.tokenFamilies[family.id] = family
        var grant = makeGrant(family: family, scopes: scopes, nonce: nil)
        grant.idToken?.amr = session.amr
        grant.issuedTokenType = TokenExchangeGrant.accessTokenType
        return grant
    }
}
