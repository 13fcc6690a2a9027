import Foundation
import HTTPTypes
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// Issue 36 item 3: a bound user token is useless without its proof of possession at every route that takes a
/// user's access token. The routes are the ones the sandbox registers with `takesUserToken`, so a new one is
/// walked too; the explicit floor below makes sure no known route silently leaves the list.
@Suite("every route that takes a user's access token refuses a bound token used unbound")
struct BoundUserTokenRoutesTests {
    /// The routes known to take a user's token; the registry may list more, never fewer.
    static let knownRoutes: Set<String> = [
        "GET /oauth2/v1/userinfo", "POST /oauth2/v1/userinfo", "GET /oauth2/:asId/v1/userinfo", "POST /oauth2/:asId/v1/userinfo",
        "GET /.well-known/app-authenticator-configuration", "POST /idp/myaccount/app-authenticators",
        "PATCH /idp/myaccount/app-authenticators/:enrollmentId", "DELETE /idp/myaccount/app-authenticators/:enrollmentId",
        "GET /idp/myaccount/app-authenticators/:enrollmentId/push/notifications",
        "GET /resource", "POST /resource", "GET /resource/admin", "POST /resource/admin", "GET /org-resource", "POST /org-resource",
    ]

    /// The registered user-token routes, as `METHOD path`.
    static func registeredRoutes(_ state: SandboxState) -> [(method: HTTPRequest.Method, path: String)] {
        buildRoutes(state: state).userTokenRoutes.map { ($0.method, $0.path) }
    }

    /// A concrete URL for a route pattern: the default server for `:asId`, an unknown enrollment, the client's id
    /// where the configuration document wants one.
    static func concrete(_ path: String) -> String {
        let filled = path.replacingOccurrences(of: ":asId", with: "default").replacingOccurrences(
            of: ":enrollmentId", with: "pfd0000000000000000")
        return filled == "/.well-known/app-authenticator-configuration" ? filled + "?oauthClientId=0oaidflowsandbox0000" : filled
    }

    /// Routes of the org authorization server take its tokens; the others take the default server's.
    static func takesOrgToken(_ path: String) -> Bool {
        path.hasPrefix("/oauth2/v1/") || path == ProtectedResource.orgAPI.path
    }

    /// The same token, re-signed by the sandbox with `cnf` (the record it names stays active).
    static func bound(_ token: String, cnf: TokenConfirmation, state: SandboxState) async throws -> String {
        let key = try await state.signingKey()
        var claims = try #require(await key.verified(token, as: AccessTokenClaims.self))
        claims.cnf = cnf
        return try await key.sign(claims)
    }

    @Test("the registry lists every known user-token route")
    func listsKnownRoutes() async throws {
        let state = SandboxState(configuration: SandboxConfiguration())
        let registered = Set(Self.registeredRoutes(state).map { "\($0.method.rawValue) \($0.path)" })
        #expect(Self.knownRoutes.subtracting(registered).isEmpty, "missing: \(Self.knownRoutes.subtracting(registered))")
    }

    @Test("no route outside the list answers differently with a user's access token than without one")
    func noUnlistedRouteTakesUserTokens() async throws {
        try await withSandbox { api in
            let scope = "openid profile okta.myAccount.appAuthenticator.manage resource.admin"
            let (_, defaultToken) = try await api.accessToken(email: "unlisted-default@example.com", scope: scope)
            let (_, orgToken) = try await api.accessToken(email: "unlisted-org@example.com", scope: "openid profile", base: "/oauth2/v1")
            let registry = buildRoutes(state: api.state)
            let listed = Set(registry.userTokenRoutes.map { "\($0.method.rawValue) \($0.path)" })
            let others = registry.routes.filter { !listed.contains("\($0.method.rawValue) \($0.path)") }
            #expect(others.count > 50, "the registry lists every route")
            for route in others {
                let url = Self.concrete(route.path).replacingOccurrences(
                    of: #":[A-Za-z]+"#, with: "x0000000000000000000", options: .regularExpression)
                let without = try await api.send(route.method, url, auth: .none)
                for token in [defaultToken, orgToken] {
                    let with = try await api.send(route.method, url, auth: .header("Bearer \(token)"))
                    #expect(
                        with.status == without.status,
                        "\(route.method) \(route.path) answers \(with.status) with a user token, \(without.status) without: register it with takesUserToken"
                    )
                }
            }
        }
    }

    @Test("a DPoP-bound token as Bearer without a proof, and a certificate-bound one without its certificate, are refused")
    func everyRouteRefusesUnboundUse() async throws {
        let key = try await TestClientKey.p256()
        try await withSandbox { api in
            let scope = "openid profile okta.myAccount.appAuthenticator.manage resource.admin"
            let (_, defaultToken) = try await api.accessToken(email: "bound-default@example.com", scope: scope)
            let (_, orgToken) = try await api.accessToken(
                email: "bound-org@example.com", scope: "openid profile", base: "/oauth2/v1")
            let routes = Self.registeredRoutes(api.state)
            #expect(routes.count >= Self.knownRoutes.count)
            for route in routes {
                let plain = Self.takesOrgToken(route.path) ? orgToken : defaultToken
                let url = Self.concrete(route.path)
                let label = "\(route.method) \(route.path)"

                // The control: the unbound token gets past the token check (whatever the route then says).
                let control = try await api.send(route.method, url, auth: .header("Bearer \(plain)"))
                #expect(control.status != .unauthorized, "\(label) refuses the plain token: \(control.text)")
                #expect(control.header("WWW-Authenticate")?.hasPrefix("DPoP") != true, "\(label): \(control.text)")

                let dpopBound = try await Self.bound(plain, cnf: TokenConfirmation(keyThumbprint: key.thumbprint), state: api.state)
                let asBearer = try await api.send(route.method, url, auth: .header("Bearer \(dpopBound)"))
                #expect(
                    [.badRequest, .unauthorized].contains(asBearer.status), "\(label) took a DPoP-bound token as Bearer: \(asBearer.text)")
                #expect(asBearer.header("WWW-Authenticate")?.hasPrefix("DPoP ") == true, "\(label): \(asBearer.headers)")

                let noProof = try await api.send(route.method, url, auth: .header("DPoP \(dpopBound)"))
                #expect(
                    [.badRequest, .unauthorized].contains(noProof.status), "\(label) took a DPoP-bound token with no proof: \(noProof.text)"
                )

                let certificateBound = try await Self.bound(
                    plain, cnf: TokenConfirmation(certificateThumbprint: "bm90LXRoZS1jZXJ0aWZpY2F0ZS10aHVtYnByaW50"), state: api.state)
                let withoutCertificate = try await api.send(route.method, url, auth: .header("Bearer \(certificateBound)"))
                #expect(
                    withoutCertificate.status == .unauthorized,
                    "\(label) took a certificate-bound token without it: \(withoutCertificate.text)")
            }
        }
    }

    @Test("MyAccount enrolls with a DPoP-bound token, its DPoP scheme and a proof, and refuses it as Bearer")
    func myAccountTakesTheProof() async throws {
        let key = try await TestClientKey.p256()
        try await withSandbox { api in
            let (_, plain) = try await api.accessToken(email: "bound-enroll@example.com")
            let token = try await Self.bound(plain, cnf: TokenConfirmation(keyThumbprint: key.thumbprint), state: api.state)
            let url = await api.orgURL + "/.well-known/app-authenticator-configuration"
            let asBearer = try await api.send(
                .get, "/.well-known/app-authenticator-configuration?oauthClientId=0oaidflowsandbox0000", auth: .header("Bearer \(token)"))
            #expect(asBearer.status == .badRequest)
            #expect(try asBearer.object()["error"] as? String == "invalid_request")
            let proved = try await api.send(
                .get, "/.well-known/app-authenticator-configuration?oauthClientId=0oaidflowsandbox0000",
                headers: [.dpop: try await key.proof(method: "GET", url: url, now: await api.now, accessToken: token)],
                auth: .header("DPoP \(token)"))
            #expect(proved.status == .ok, "\(proved.text)")
        }
    }
}
