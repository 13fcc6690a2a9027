import Foundation
import HTTPTypes
import Hummingbird

/// The protected resources (`ProtectedResource`): `GET|POST {org}/resource` echoes who called for a valid access
/// token of the default authorization server, `{org}/resource/admin` also needs `resource.admin`,
/// `{org}/org-resource` takes tokens of the org authorization server only, and each publishes its RFC 9728
/// metadata under `/.well-known/oauth-protected-resource`. Bearer tokens, and DPoP-bound tokens with the `DPoP` scheme
/// and a proof that carries the server's nonce; the routes are public (no SSWS).
///
/// Requiring the nonce here is the sandbox's choice (RFC 9449 §9 allows it; Okta's own resources do not ask): it
/// lets a client's resource-side nonce retry be tested. The first proof without the current nonce gets 401,
/// `WWW-Authenticate: DPoP error="use_dpop_nonce"` and a `DPoP-Nonce` header.
struct ResourceController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        for resource in ProtectedResource.allCases {
            routes.get(resource.metadataPath) { _, _ in .json(ResourceWire.metadata(resource, orgURL: await state.orgURL)) }
            for method in [HTTPRequest.Method.get, .post] {
                routes.on(resource.path, method, takesUserToken: true) { request, context in
                    try await echo(request, context: context, resource: resource, requiredScope: nil)
                }
            }
        }
        for method in [HTTPRequest.Method.get, .post] {
            routes.on(ProtectedResource.adminPath, method, takesUserToken: true) { request, context in
                try await echo(request, context: context, resource: .api, requiredScope: ProtectedResource.adminScope)
            }
        }
    }

    /// `{"sub", "scopes", "method", "body"}` for a token `resource` accepts (with `requiredScope` when given).
    func echo(_ request: Request, context: SandboxRequestContext, resource: ProtectedResource, requiredScope: String?) async throws
        -> Response
    {
        let metadataURL = resource.metadataURL(orgURL: await state.orgURL)
        let (claims, user) = try await authenticate(request, context: context, resource: resource, metadataURL: metadataURL)
        if let requiredScope, !claims.scp.contains(requiredScope) {
            var challenge = ResourceChallenge(
                status: .forbidden, error: "insufficient_scope",
                errorDescription: "The access token does not have the scope \(requiredScope).",
                metadataURL: metadataURL)
            challenge.scope = requiredScope
            throw challenge
        }
        var request = request
        let data = try await request.bodyData(context: context)
        let body: OrderedJSON
        if data.isEmpty {
            body = .null
        } else if let document = try? JSONDecoder().decode(OrderedJSON.self, from: data) {
            body = document
        } else {
            body = .string(String(decoding: data, as: UTF8.self))
        }
        return .json(ResourceWire.echo(sub: user.id, scopes: claims.scp, method: request.method.rawValue, body: body))
    }

    /// The access token's claims and user, or the challenge that refuses the call.
    func authenticate(_ request: Request, context: SandboxRequestContext, resource: ProtectedResource, metadataURL: String) async throws
        -> (AccessTokenClaims, UserRecord)
    {
        guard let header = request.headers[.authorization] else { throw ResourceChallenge.missingToken(metadataURL: metadataURL) }
        let scheme = header.prefix { $0 != " " }.lowercased()
        guard scheme == "bearer" || scheme == "dpop" else {
            throw ResourceChallenge(
                status: .badRequest, error: "invalid_request",
                errorDescription: "The Authorization header must use the Bearer or DPoP scheme.",
                metadataURL: metadataURL)
        }
        let token = header.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        let key = try await state.signingKey()
        guard let claims = await key.verified(token, as: AccessTokenClaims.self),
            let user = await state.resourceUser(for: claims, server: resource.server)
        else {
            throw ResourceChallenge.invalidToken("The access token is invalid, expired or revoked.", metadataURL: metadataURL)
        }
        try await checkDPoP(request, token: token, claims: claims, usesDPoP: scheme == "dpop", metadataURL: metadataURL)
        // RFC 8705 §3: a certificate-bound token is taken only over a connection with that certificate.
        guard await ClientCertificate.confirms(claims.cnf, on: context.channel) else {
            throw ResourceChallenge.invalidToken("The access token is bound to another client certificate.", metadataURL: metadataURL)
        }
        return (claims, user)
    }

    /// RFC 9449 §7: a bound token needs the `DPoP` scheme and a proof of its key with the current nonce; an
    /// unbound one must not claim the scheme.
    func checkDPoP(_ request: Request, token: String, claims: AccessTokenClaims, usesDPoP: Bool, metadataURL: String) async throws {
        guard let bound = claims.cnf?.keyThumbprint else {
            if usesDPoP { throw ResourceChallenge.invalidToken("The access token is not DPoP-bound.", metadataURL: metadataURL) }
            return
        }
        var challenge = ResourceChallenge.invalidToken("The access token is DPoP-bound: use the DPoP scheme.", metadataURL: metadataURL)
        challenge.scheme = "DPoP"
        guard usesDPoP else { throw challenge }
        do {
            try await BoundTokenProof.check(request, accessToken: token, boundTo: bound, state: state, requireNonce: true)
        } catch {
            switch error {
            case .missing:
                challenge = ResourceChallenge(
                    status: .unauthorized, error: "invalid_dpop_proof", errorDescription: "The request has no DPoP proof.",
                    metadataURL: metadataURL, scheme: "DPoP")
            case .rejected(let rejected):
                challenge = ResourceChallenge(
                    status: .unauthorized, error: "invalid_dpop_proof", errorDescription: rejected.description, metadataURL: metadataURL,
                    scheme: "DPoP")
            case .nonce(let nonce):
                challenge = ResourceChallenge(
                    status: .unauthorized, error: "use_dpop_nonce", errorDescription: "Resource server requires nonce in DPoP proof",
                    metadataURL: metadataURL, scheme: "DPoP", dpopNonce: nonce)
            }
            throw challenge
        }
    }
}
