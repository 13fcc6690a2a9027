import Foundation

/// Everything the sandbox remembers, in memory, behind one actor so requests never race.
///
/// One instance backs one server. Tests can create it themselves and pass it to
/// `buildApplication(configuration:state:)` to inspect or drive it (for example to advance the
/// clock or to read the outbox) without going through HTTP.
public actor SandboxState {
    /// The configuration the state was created with.
    public nonisolated let configuration: SandboxConfiguration
    /// The management API token (`Authorization: SSWS …`); random unless configured.
    public nonisolated let apiToken: String

    /// `http://host:port`, or `https://…` with TLS; fixed once the server is bound (see `didBind(host:port:)`).
    public private(set) var orgURL: String
    /// `host:port` the server really listens on (`0.0.0.0:PORT` for every interface, where `orgURL` says loopback);
    /// nil until it is bound.
    public private(set) var listenAddress: String?
    /// The generated CA's PEM file clients trust (`--tls` without `--tls-cert`); nil otherwise.
    public private(set) var caFile: String?
    /// Read without the actor too: the connection handler that writes the `Date` header reads it.
    nonisolated let clock: SandboxClock

    // Each family's records, in a store of its own (its folder's `…Store.swift`); the family's
    // `SandboxState+….swift` extensions read and write them, and `SandboxState+Purge.swift` sweeps them.
    var directory = DirectoryStore()
    var recovery = RecoveryStore()
    var authn = AuthnStore()
    var oauth = OAuthStore()
    var deviceGrant = DeviceGrantStore()
    var push = PushAuthenticatorStore()
    var idx = IDXStore()
    var oauthService = OAuthServiceStore()
    var customRegistration = CustomRegistrationStore()
    var directAuth = DirectAuthStore()

    /// When expired records were last purged (`SandboxState+Purge.swift`).
    var sweep = SweepSchedule(lastSweep: Date())

    // Admin.
    var outbox: [OutboxMessage] = []
    var faults: [Fault] = []
    /// Requests held by a `hold` fault, by the fault's id, until released.
    var heldRequests = HeldRequests()
    var rateLimiter: RateLimiter

    /// Creates an empty directory. Cheap: no keys are generated and no I/O happens here.
    public init(configuration: SandboxConfiguration = SandboxConfiguration()) {
        var configuration = configuration
        // Like the API token, the custom-registration client's secret is random per run unless configured.
        if configuration.customRegistration.clientSecret == nil {
            configuration.customRegistration.clientSecret = RandomToken.string(count: 40, alphabet: RandomToken.urlSafeAlphabet)
        }
        self.configuration = configuration
        self.clock = SandboxClock(frozen: configuration.freezeClock)
        self.apiToken = configuration.apiToken ?? RandomToken.apiToken()
        self.orgURL = Self.makeOrgURL(host: configuration.host, port: configuration.port, tls: configuration.tls != nil)
        self.rateLimiter = RateLimiter(
            limits: configuration.rateLimits, windowSeconds: configuration.rateLimitWindowSeconds)
    }

    /// The sandbox clock's current time (real time plus every advance).
    public var now: Date { clock.now }

    /// Moves the sandbox clock (back when negative, never before real time); every expiry (tokens, codes,
    /// sessions) follows it. False, with the clock unmoved, when it would go before real time.
    @discardableResult
    public func advanceClock(bySeconds seconds: TimeInterval) -> Bool {
        guard clock.move(by: seconds) else { return false }
        // A sweep scheduled by a later clock would otherwise wait until time caught up with it.
        if sweep.lastSweep > clock.now { sweep.lastSweep = clock.now }
        return true
    }

    /// Puts the sandbox clock back on real time (`{"reset": true}`).
    public func resetClock() {
        clock.reset()
        if sweep.lastSweep > clock.now { sweep.lastSweep = clock.now }
    }

    /// How far ahead of real time the sandbox clock is, in seconds.
    public var clockOffset: TimeInterval { clock.offset }

    /// What `idflow sandbox` prints once the server listens.
    public var info: SandboxInfo {
        SandboxInfo(
            orgUrl: orgURL,
            issuer: orgURL + "/oauth2/default",
            apiToken: apiToken,
            clientId: configuration.clientId,
            redirectUri: configuration.redirectURIs.first ?? "",
            customRegistration: CustomRegistrationInfo(
                clientId: configuration.customRegistration.clientId, clientSecret: configuration.customRegistration.clientSecret ?? "",
                identityProviders: configuration.customRegistration.identityProviders.map {
                    .init(id: $0.id, type: $0.type.rawValue, enabled: $0.enabled)
                }),
            idx: configuration.idx, listenAddress: listenAddress, caFile: caFile,
            resource: ResourceInfo(
                url: ProtectedResource.api.identifier(orgURL: orgURL), adminUrl: orgURL + ProtectedResource.adminPath,
                adminScope: ProtectedResource.adminScope, metadataUrl: ProtectedResource.api.metadataURL(orgURL: orgURL),
                orgIssuerUrl: ProtectedResource.orgAPI.identifier(orgURL: orgURL)),
            passwordPolicy: configuration.passwordPolicy, serviceApp: oauthService.appInfo,
            directAuthGrants: configuration.directAuthGrantsByClient)
    }

    /// Records the address the server actually bound, so every URL the sandbox writes is reachable.
    func didBind(host: String, port: Int) {
        orgURL = Self.makeOrgURL(host: host, port: port, tls: configuration.tls != nil)
        listenAddress = ListenAddress.hostAndPort(host, port: port)
    }

    /// Records the generated CA's file, for `info`.
    func didPrepareTLS(caFile: String?) {
        self.caFile = caFile
    }

    /// `http://HOST[:PORT]` (`https://` with TLS); a wildcard bind address is written as loopback so clients can use it.
    static func makeOrgURL(host: String, port: Int, tls: Bool = false) -> String {
        var name = host
        if name == "0.0.0.0" || name.isEmpty { name = "127.0.0.1" }
        if name == "::" { name = "::1" }
        if name.contains(":") { name = "[\(name)]" }
        let scheme = tls ? "https" : "http"
        return port == 0 ? "\(scheme)://\(name)" : "\(scheme)://\(name):\(port)"
    }
}
