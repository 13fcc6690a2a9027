/// The protected resources the sandbox serves, modelled on the mobile app's API (`getData()`): each takes the
/// access tokens of one authorization server and describes itself with RFC 9728 metadata.
enum ProtectedResource: CaseIterable, Sendable {
    /// `{org}/resource` (and `{org}/resource/admin`), for tokens of the default authorization server: the one
    /// idflow logs in to unless told otherwise.
    case api
    /// `{org}/org-resource`, for tokens of the org authorization server only, so a client logged in to
    /// `default` learns from the metadata where to log in instead.
    case orgAPI

    /// The resource identifier's path, and the URL the echo answers on.
    var path: String {
        switch self {
        case .api: return "/resource"
        case .orgAPI: return "/org-resource"
        }
    }

    /// Where the metadata is (RFC 9728 §3.1: the well-known suffix goes between the host and the path).
    var metadataPath: String { "/.well-known/oauth-protected-resource" + path }

    var server: HostedAuthorizationServer {
        switch self {
        case .api: return .custom("default")
        case .orgAPI: return .org
        }
    }

    /// The admin call of `api`, answered only for a token with `adminScope`.
    static let adminPath = "/resource/admin"
    /// The scope the admin call needs; the default authorization server grants it when asked.
    static let adminScope = "resource.admin"
    /// The realm of every challenge.
    static let realm = "idflow-sandbox"

    /// The resource identifier (`resource` of the metadata).
    func identifier(orgURL: String) -> String { orgURL + path }

    func metadataURL(orgURL: String) -> String { orgURL + metadataPath }

    /// The scopes listed in the metadata.
    var scopesSupported: [String] {
        switch self {
        case .api: return ["openid", "profile", "email", "offline_access", Self.adminScope]
        case .orgAPI: return ["openid", "profile", "email", "offline_access"]
        }
    }
}
