import Foundation
import HTTPTypes
import Hummingbird

/// `GET|POST {issuer}/v1/userinfo` with `Authorization: Bearer <access token>`, or `Authorization: DPoP <token>` and a
/// `DPoP` proof for a DPoP-bound token (`dpopBoundAccessTokens`; refusals as Okta words them, okta-core.md §H5).
struct UserInfoController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/userinfo", .get, takesUserToken: true, use: userInfo)
        routes.oauth("/userinfo", .post, takesUserToken: true, use: userInfo)
    }

    static let invalidToken: OAuthErrorResponse = {
        var error = OAuthErrorResponse(.unauthorized, "invalid_token", "The access token is invalid.")
        error.headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="The access token is invalid""#
        return error
    }()

    /// Claims by granted scope: always `sub`; `profile` adds names, `email` adds the address.
    @Sendable func userInfo(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        guard let (usesDPoP, token) = UserTokenBinding.credentials(request.headers[.authorization]) else {
            throw Self.invalidToken
        }
        let key = try await state.signingKey()
        guard let claims = await key.verified(token, as: AccessTokenClaims.self),
            let user = await state.activeAccessToken(claims, server: server)
        else { throw Self.invalidToken }
        let challenge = OktaResourceChallenge(
            scheme: "DPoP", orgURL: await state.orgURL, scope: "openid", resource: request.uri.path)
        try await UserTokenBinding.check(
            request, context: context, token: token, cnf: claims.cnf, usesDPoP: usesDPoP, challenge: challenge,
            wrongCertificate: Self.invalidToken, state: state)
        guard claims.scp.contains("openid") else {
            var error = OAuthErrorResponse(
                .forbidden, "insufficient_scope", "The access token must provide access to the 'openid' scope.")
            error.headers[.wwwAuthenticate] =
                #"Bearer error="insufficient_scope", error_description="The access token must provide access to the 'openid' scope""#
            throw error
        }
        var body: JSONObject = ["sub": .string(user.id)]
        if claims.scp.contains("profile") {
            body["name"] = .string(SandboxState.displayName(user))
            body["locale"] = "en_US"
            body["preferred_username"] = .string(user.login)
            body["given_name"] = user.profile["firstName"] ?? .null
            body["family_name"] = user.profile["lastName"] ?? .null
            body["zoneinfo"] = "America/Los_Angeles"
            body["updated_at"] = .int(Int(user.lastUpdated.timeIntervalSince1970))
        }
        if claims.scp.contains("email") {
            body["email"] = .string(user.email)
            body["email_verified"] = true
        }
        return .json(.object(body))
    }
}
