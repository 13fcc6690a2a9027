/// The configuration flags every subcommand accepts, as typed on the command line (nil when absent).
public struct ConfigurationFlags: Sendable, Equatable {
    public var orgURL: String?
    public var apiTokenFile: String?
    /// `--api-token`: accepted, with a warning, because argv is visible in `ps`.
    public var apiToken: String?
    public var issuer: String?
    public var clientID: String?
    public var redirectURI: String?
    public var scope: String?
    public var profile: String?
    public var stateDirectory: String?
    public var verbose: Bool
    public var quiet: Bool
    public var timeoutSeconds: Double?
    public var maxRetries: Int?
    /// `--ca-file`, `--client-cert`, `--client-key`, `--proxy` (the empty string: no proxy).
    public var caFile: String?
    public var clientCertificate: String?
    public var clientKey: String?
    public var proxy: String?
    /// `--curl` (stderr) and `--curl-file PATH`: each request also written as a curl command.
    public var curl: Bool
    public var curlFile: String?
    /// The service app (`--authorization-mode PrivateKey`) and DPoP: `--authorization-mode`, `--service-client-id`,
    /// `--service-scopes`, `--private-key-file`, `--private-key-id`, `--dpop`.
    public var authorizationMode: String?
    public var serviceClientID: String?
    public var serviceScopes: String?
    public var privateKeyFile: String?
    public var privateKeyID: String?
    public var dpop = false

    public init(
        orgURL: String? = nil, apiTokenFile: String? = nil, apiToken: String? = nil, issuer: String? = nil, clientID: String? = nil,
        redirectURI: String? = nil, scope: String? = nil, profile: String? = nil, stateDirectory: String? = nil, verbose: Bool = false,
        timeoutSeconds: Double? = nil, maxRetries: Int? = nil, quiet: Bool = false, caFile: String? = nil,
        clientCertificate: String? = nil, clientKey: String? = nil, proxy: String? = nil, curl: Bool = false, curlFile: String? = nil
    ) {
        self.curl = curl
        self.curlFile = curlFile
        self.quiet = quiet
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.proxy = proxy
        self.orgURL = orgURL
        self.apiTokenFile = apiTokenFile
        self.apiToken = apiToken
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.profile = profile
        self.stateDirectory = stateDirectory
        self.verbose = verbose
        self.timeoutSeconds = timeoutSeconds
        self.maxRetries = maxRetries
    }
}
