import Foundation
import HTTPTypes
import Hummingbird

/// `GET|POST {issuer}/v1/userinfo` with `Authorization: Bearer <access token>`, or `Authorization: DPoP <token>` and a
/// `DPoP` proof for a DPoP-bound token (`dpopBoundAccessTokens`; refusals as Okta words them, okta-core.md §H5).
struct UserInfoController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/userinfo", .get, use: userInfo)
        routes.oauth("/userinfo", .post, use: userInfo)
    }

    static let invalidToken: OAuthErrorResponse = {
        var error = OAuthErrorResponse(.unauthorized, "invalid_token", "The access token is invalid.")
        error.headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="The access token is invalid""#
        return error
    }()

    /// Claims by granted scope: always `sub`; `profile` adds names, `email` adds the address.
    @Sendable func userInfo(
        _ request: Request, context: SandboxRequestContext, server: AuthorizationServer
    ) async throws -> Response {
        guard let header = request.headers[.authorization],
            header.lowercased().hasPrefix("bearer ") || header.lowercased().hasPrefix("dpop ")
        else {
            throw Self.invalidToken
        }
        let usesDPoP = header.lowercased().hasPrefix("dpop ")
        let token = header.dropFirst(usesDPoP ? 5 : 7).trimmingCharacters(in: .whitespaces)
        let key = try await state.signingKey()
        guard let claims = await key.verified(token, as: AccessTokenClaims.self),
            let user = await state.activeAccessToken(claims, server: server)
        else { throw Self.invalidToken }
        try await checkDPoP(request, token: token, claims: claims, usesDPoP: usesDPoP)
        // RFC 8705 §3: a certificate-bound token is accepted only over a connection with that certificate.
        if let bound = claims.cnf?.certificateThumbprint {
            guard let certificate = await ClientCertificate.presented(on: context.channel),
                ConstantTime.equals(certificate.thumbprint, bound)
            else { throw Self.invalidToken }
        }
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

    /// RFC 9449 §7: a bound token comes with the `DPoP` scheme and a proof of its key; an unbound one without.
    private func checkDPoP(_ request: Request, token: String, claims: AccessTokenClaims, usesDPoP: Bool) async throws {
        let challenge = OktaResourceChallenge(
            scheme: "DPoP", orgURL: await state.orgURL, scope: "openid", resource: request.uri.path)
        guard let bound = claims.cnf?.keyThumbprint else {
            if usesDPoP {
                var refusal = challenge.refusing(.unauthorized, "invalid_token", "The presented access_token is not DPoP bound.")
                refusal.scheme = "Bearer"
                throw refusal
            }
            return
        }
        try await challenge.requireProof(request, accessToken: token, boundTo: bound, usesDPoP: usesDPoP, state: state)
    }
}
