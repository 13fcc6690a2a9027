import Foundation

extension FuzzTargets {
    /// The sandbox, shared by its targets and made on first use (one per fuzzing process).
    nonisolated(unsafe) private static var sandbox: SandboxHarness!

    /// A sandbox target: requests (`METHOD /path`, headers, blank line, body) to the routes under `prefixes`.
    private static func sandboxRoutes(_ name: String, _ summary: String, _ prefixes: [String]) -> FuzzTarget {
        FuzzTarget(name: name, summary: summary, prepare: { sandbox = SandboxHarness() }) { input in
            sandbox.send(input, prefixes: prefixes)
        }
    }

    /// `GET /api/v1/users` with the input as its query: `search=` and `filter=` go through the sandbox's own
    /// expression parser, then are matched against the users.
    static let sandboxFilter = FuzzTarget(
        name: "sandbox-filter", summary: "the sandbox's users search/filter expression parser, through GET /api/v1/users?QUERY",
        prepare: { sandbox = SandboxHarness() }
    ) { input in
        var request = Data("GET /api/v1/users?".utf8)
        request.append(contentsOf: input.filter { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 })
        sandbox.send(request, prefixes: ["/api/v1/users"])
    }

    static let sandboxUsers = sandboxRoutes(
        "sandbox-users", "the sandbox's users and lifecycle routes: JSON bodies, queries, paths",
        ["/api/v1/users", "/sandbox/users", "/sandbox/info", "/sandbox/outbox", "/sandbox/records"])
    static let sandboxAuthn = sandboxRoutes(
        "sandbox-authn", "the sandbox's Authn routes (sign-in, factors, recovery, password change) and activation pages",
        ["/api/v1/authn", "/activate"])
    static let sandboxOAuth = sandboxRoutes(
        "sandbox-oauth", "the sandbox's OAuth/OIDC routes (authorize, token, device, introspect, revoke, userinfo) and custom registration",
        [
            "/oauth2", "/.well-known/openid-configuration", "/oauth/custom-registration", "/resource",
            "/.well-known/oauth-protected-resource",
        ])
    static let sandboxIdentityEngine = sandboxRoutes(
        "sandbox-idx", "the sandbox's Identity Engine routes (/idp/idx/…) and interact",
        ["/idp/idx", "/oauth2/default/v1/interact", "/oauth2/v1/interact"])
    static let sandboxDevices = sandboxRoutes(
        "sandbox-devices", "the sandbox's push authenticator routes (MyAccount enrollments, challenges, verify) and device admin",
        [
            "/idp/myaccount", "/idp/authenticators", "/.well-known/app-authenticator-configuration", "/.well-known/okta-organization",
            "/sandbox/push", "/sandbox/device",
        ])
}
