import Foundation

/// The settings one run uses, after flags, environment, profile file and defaults were weighed.
public struct Configuration: Sendable {
    public var orgURL: URL?
    public var apiToken: Secret?
    public var issuer: URL?
    public var clientID: String?
    public var redirectURI: String?
    public var scope: String
    /// The scope when the user chose one (flag, environment or profile), nil when `scope` is the default;
    /// a refresh only narrows the grant when asked to.
    public var explicitScope: String?
    public var profile: String
    public var stateDirectory: URL
    public var verbose: Bool
    /// `--quiet` / `IDFLOW_QUIET=1`: no headlines or progress on stderr; errors, warnings, prompts and what a
    /// person must act on still show (`IdFlowContext.notice`).
    public var quiet = false
    public var timeout: Duration
    public var maxRetries: Int
    /// The Token Server of custom registration (`IDFLOW_TOKEN_SERVER`, profile `tokenServer`); nil means the org.
    public var tokenServer: URL?
    /// Where a confidential client's secret is found when no `--client-secret-file` is given
    /// (`IDFLOW_CLIENT_SECRET_FILE`, `OKTA_OAUTH2_CLIENTSECRET`, profile `clientSecretFile`); read only when a
    /// request needs it (`IdFlowContext.clientSecret(file:)`).
    public var clientSecretSource: SecretSource?
    /// What a company network needs from every request: a CA bundle, a client certificate, a proxy.
    public var transportOptions = CurlTransport.Options()
    /// `--curl`, `--curl-file PATH`, `IDFLOW_CURL=1`: where each request is also written as a curl command; nil for nowhere.
    public var curl: CurlScriptOutput?
    /// How management calls authenticate: the API token (SSWS) or the service app (PrivateKey).
    public var managementMode = ManagementMode.apiToken
    /// The service app of PrivateKey mode, `login-client`'s key, and whether tokens are DPoP-bound.
    public var serviceApp = ServiceAppSettings()
    /// `--dpop` or the profile's `dpop: true`: a new login's tokens are DPoP-bound (OKTA_CLIENT_DPOPENABLED is the
    /// service app's setting, as in Okta's SDKs, and does not apply to logins).
    public var bindsLoginsWithDPoP = false
    /// `IDFLOW_DPOP_ALLOW_BEARER=1`: a script accepts a Bearer token where it sent a DPoP proof (with a warning);
    /// without it only a person at a terminal does (`BearerInPlaceOfDPoP`).
    public var acceptsBearerInPlaceOfDPoP = false
    /// The profiles the profile file defines, read with it; nil when no file was consulted (a configuration built
    /// in code). A command that writes another profile's login (`--store-as`) refuses one `--profile` could not
    /// name later, so nothing is saved where no command can read it.
    public var definedProfiles: Set<String>?
    /// The profile file `definedProfiles` was read from, for the error naming it.
    public var profileFile: URL?

    public static let defaultScope = "openid profile email offline_access"

    public init(
        orgURL: URL? = nil, apiToken: Secret? = nil, issuer: URL? = nil, clientID: String? = nil, redirectURI: String? = nil,
        scope: String = Configuration.defaultScope, profile: String = "default", stateDirectory: URL, verbose: Bool = false,
        timeout: Duration = .seconds(30), maxRetries: Int = 3
    ) {
        self.orgURL = orgURL
        self.apiToken = apiToken
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.profile = profile
        self.stateDirectory = stateDirectory
        self.verbose = verbose
        self.timeout = timeout
        self.maxRetries = maxRetries
    }

    /// The org URL, or an error that says how to set it.
    /// An issuer and no org URL: a profile for any OpenID provider, not an Okta org. What only Okta has (the
    /// management API, the Identity Engine) is neither asked for nor probed.
    public var isOpenIDProviderProfile: Bool { orgURL == nil && issuer != nil }

    public func requireOrgURL() throws(IdFlowError) -> URL {
        guard let orgURL else {
            throw .configuration("no org URL configured", hint: "pass --org-url https://dev-123.okta.com or export OKTA_CLIENT_ORGURL")
        }
        try TransportSecurity.check(orgURL)
        return orgURL
    }

    /// The management API token, or an error that says how to set it.
    public func requireAPIToken() throws(IdFlowError) -> Secret {
        guard let apiToken else {
            throw .configuration(
                "no API token configured",
                hint:
                    "export OKTA_CLIENT_TOKEN, pass --api-token-file PATH, or set okta.client.token in ~/.okta/okta.yaml; an org without API tokens: --authorization-mode PrivateKey with a service app"
            )
        }
        return apiToken
    }

    /// The authorization server: `--issuer`, else `{org}/oauth2/default`.
    public func requireIssuer() throws(IdFlowError) -> URL {
        if let issuer {
            try TransportSecurity.check(issuer)
            return issuer
        }
        guard orgURL != nil else {
            throw .configuration(
                "no issuer configured", hint: "pass --issuer URL (or --org-url, whose default issuer is {org}/oauth2/default)")
        }
        return try requireOrgURL().appendingPathComponent("oauth2/default")
    }

    /// The OAuth client id, or an error that says how to set it.
    public func requireClientID() throws(IdFlowError) -> String {
        guard let clientID, !clientID.isEmpty else {
            throw .configuration(
                "no OAuth client id configured", hint: "pass --client-id, export IDFLOW_CLIENT_ID, or set clientId in the profile")
        }
        return clientID
    }

    /// The redirect URI registered for the app; the logins that send one (`login-pkce` but `--browser`) need it.
    public func requireRedirectURI() throws(IdFlowError) -> String {
        guard let redirectURI, !redirectURI.isEmpty else {
            throw .configuration(
                "no redirect URI configured",
                hint: "pass --redirect-uri (the one registered for the app), export IDFLOW_REDIRECT_URI, or set redirectUri in the profile"
            )
        }
        return redirectURI
    }

    /// The configured redirect URI when a listener on this machine can take it (plain `http` to a loopback host):
    /// its path, and its port when it names one. `login-pkce --browser` and an embedded sign-in's `redirect-idp`
    /// listen there.
    public var loopbackRedirect: (path: String, port: UInt16?)? {
        guard let redirectURI, let url = URL(string: redirectURI), url.scheme == "http", let host = url.host,
            TransportSecurity.isLoopback(host: host)
        else { return nil }
        return (url.path.isEmpty ? "/" : url.path, url.port.flatMap { UInt16(exactly: $0) })
    }

    /// The folder holding this profile's tokens and keys.
    public var profileDirectory: URL {
        stateDirectory.appendingPathComponent("profiles", isDirectory: true).appendingPathComponent(profile, isDirectory: true)
    }
}
