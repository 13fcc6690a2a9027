/// The authorization servers the sandbox serves: the org AS (issuer `{org}`, endpoints under
/// `/oauth2/v1`) and the custom AS `default` (issuer `{org}/oauth2/default`).
///
/// The client's `AuthorizationServer` is the same thing seen from the client (a discovered issuer and
/// its keys); this one is an issuer the sandbox hosts, hence its name. The sandbox does not import the
/// core (DESIGN.md: each side keeps its own types so that neither can hide the other's wire mistakes).
enum HostedAuthorizationServer: Sendable, Equatable {
    case org
    case custom(String)

    /// The custom authorization servers that exist; any other id is 404 (AuthorizationServer).
    static let customIDs: Set<String> = ["default"]

    /// `nil` is the org AS (routes without an id); an unknown id is Okta's E0000007.
    init(id: String?) throws {
        guard let id else {
            self = .org
            return
        }
        guard Self.customIDs.contains(id) else { throw OktaErrorResponse.notFound(id, type: "AuthorizationServer") }
        self = .custom(id)
    }

    func issuer(orgURL: String) -> String {
        switch self {
        case .org: return orgURL
        case .custom(let id): return "\(orgURL)/oauth2/\(id)"
        }
    }

    /// Where `/authorize`, `/token`, … live: `{org}/oauth2/v1` or `{issuer}/v1`.
    func endpointBase(orgURL: String) -> String {
        switch self {
        case .org: return "\(orgURL)/oauth2/v1"
        case .custom: return "\(issuer(orgURL: orgURL))/v1"
        }
    }

    /// The access token audience: `api://default` for the default AS, the org URL for the org AS.
    func audience(orgURL: String) -> String {
        switch self {
        case .org: return orgURL
        case .custom(let id): return "api://\(id)"
        }
    }

    /// The scopes a client may request (and discovery lists). The MyAccount app-authenticator scopes
    /// (devices.md §0) belong to the org AS at Okta; the sandbox grants them on `default` too, the
    /// issuer idflow uses unless told otherwise, so `login-pkce --scope "… okta.myAccount.…"` works. The MyAccount
    /// password scope is granted to every app (an admin grants it to the app in Okta; direct-auth.md §9.1).
    var scopesSupported: [String] {
        let standard = [
            "openid", "profile", "email", "address", "phone", "offline_access",
            SandboxState.manageScope, SandboxState.readScope, SandboxState.passwordManageScope,
            // Native SSO and Native-to-Web SSO (native-sso.md §1.2, §2.1).
            "device_sso", "interclient_access",
        ]
        switch self {
        case .org: return standard + ["groups"]
        // The protected resource's admin scope (`ProtectedResource.adminScope`), a custom scope as an API defines one.
        case .custom: return standard + [ProtectedResource.adminScope]
        }
    }
}
