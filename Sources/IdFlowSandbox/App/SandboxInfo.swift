/// What a client needs to talk to a running sandbox; `idflow sandbox` prints it as one JSON line.
public struct SandboxInfo: Codable, Sendable, Equatable {
    /// `http://127.0.0.1:PORT` (`https://…` with `--tls`), the base of every URL the sandbox writes.
    public var orgUrl: String
    /// The default custom authorization server: `"\(orgUrl)/oauth2/default"`.
    public var issuer: String
    /// The management API token for `Authorization: SSWS …`.
    public var apiToken: String
    /// The public OAuth client id.
    public var clientId: String
    /// The first registered redirect URI.
    public var redirectUri: String
    /// The custom-registration client and identity providers (the Token Server is the org URL).
    public var customRegistration: CustomRegistrationInfo?
    /// The Identity Engine's policy: `{"authenticators": [...], "signUp": Bool}`.
    public var idx: IDXPolicy?
    /// `host:port` the server listens on, which for `--host 0.0.0.0` is every interface although `orgUrl` names
    /// loopback (the address clients on this machine use).
    public var listenAddress: String?
    /// With `--tls` and a generated certificate: the PEM file of the CA that signed it (mode 0600, removed when the
    /// sandbox stops), for a client's `--ca-file`.
    public var caFile: String?
    /// The protected resource for `idflow api` (`ResourceInfo`).
    public var resource: ResourceInfo?
    /// Lockout, password age and recovery (`PasswordPolicySettings`).
    public var passwordPolicy: PasswordPolicySettings?
    /// The default OAuth 2.0 service app (`ServiceAppInfo`), absent when the configuration lists its own.
    public var serviceApp: ServiceAppInfo?
    /// The Direct Authentication grants (`grant_type` values) of each OAuth client, by client id (`directAuth.grants`).
    public var directAuthGrants: [String: [String]]?

    public init(
        orgUrl: String, issuer: String, apiToken: String, clientId: String, redirectUri: String,
        customRegistration: CustomRegistrationInfo? = nil, idx: IDXPolicy? = nil, listenAddress: String? = nil,
        caFile: String? = nil, resource: ResourceInfo? = nil, passwordPolicy: PasswordPolicySettings? = nil,
        serviceApp: ServiceAppInfo? = nil, directAuthGrants: [String: [String]]? = nil
    ) {
        self.directAuthGrants = directAuthGrants
        self.serviceApp = serviceApp
        self.passwordPolicy = passwordPolicy
        self.orgUrl = orgUrl
        self.issuer = issuer
        self.apiToken = apiToken
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.customRegistration = customRegistration
        self.idx = idx
        self.listenAddress = listenAddress
        self.caFile = caFile
        self.resource = resource
    }

    /// The same document as the sandbox's own JSON (for `GET /sandbox/info`), the original keys first.
    var json: OrderedJSON {
        var object: JSONObject = [
            "orgUrl": .string(orgUrl), "issuer": .string(issuer), "apiToken": .string(apiToken), "clientId": .string(clientId),
            "redirectUri": .string(redirectUri),
        ]
        if let customRegistration {
            object["customRegistration"] = [
                "clientId": .string(customRegistration.clientId), "clientSecret": .string(customRegistration.clientSecret),
                "identityProviders": .array(
                    customRegistration.identityProviders.map {
                        ["id": .string($0.id), "type": .string($0.type), "enabled": .bool($0.enabled)]
                    }),
            ]
        }
        if let idx {
            // The shape `IDXPolicy.encode(to:)` writes, which reads back as the same policy.
            object["idx"] = [
                "enroll": [
                    "required": .array(idx.required.map { .string($0.rawValue) }),
                    "optional": .array(idx.optional.map { .string($0.rawValue) }),
                ],
                "signIn": ["factors": .int(idx.factors)], "signUp": .bool(idx.signUp), "numberChallenge": .bool(idx.numberChallenge),
            ]
        }
        if let listenAddress { object["listenAddress"] = .string(listenAddress) }
        if let caFile { object["caFile"] = .string(caFile) }
        if let resource {
            object["resource"] = [
                "url": .string(resource.url), "adminUrl": .string(resource.adminUrl), "adminScope": .string(resource.adminScope),
                "metadataUrl": .string(resource.metadataUrl), "orgIssuerUrl": .string(resource.orgIssuerUrl),
            ]
        }
        if let passwordPolicy { object["passwordPolicy"] = passwordPolicy.json }
        if let serviceApp { object["serviceApp"] = serviceApp.json }
        if let directAuthGrants {
            object["directAuthGrants"] = .object(
                JSONObject(directAuthGrants.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map { .string($0) })) }))
        }
        return .object(object)
    }
}

/// `customRegistration` of `SandboxInfo`: who may register users, and through which identity providers.
public struct CustomRegistrationInfo: Codable, Sendable, Equatable {
    public var clientId: String
    public var clientSecret: String
    public var identityProviders: [IdentityProvider]

    public struct IdentityProvider: Codable, Sendable, Equatable {
        public var id: String
        /// `ONE_STEP` or `TWO_STEP`.
        public var type: String
        public var enabled: Bool

        public init(id: String, type: String, enabled: Bool) {
            self.id = id
            self.type = type
            self.enabled = enabled
        }
    }

    public init(clientId: String, clientSecret: String, identityProviders: [IdentityProvider]) {
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.identityProviders = identityProviders
    }
}

/// `resource` of `SandboxInfo`: the protected resource `idflow api` calls, modelled on the mobile app's API.
public struct ResourceInfo: Codable, Sendable, Equatable {
    /// `GET|POST`: `{"sub", "scopes", "method", "body"}` for a valid access token of the default authorization server.
    public var url: String
    /// The same, only for a token with `adminScope` (403 `insufficient_scope` otherwise).
    public var adminUrl: String
    public var adminScope: String
    /// The RFC 9728 metadata of `url` (and `adminUrl`).
    public var metadataUrl: String
    /// A second resource whose metadata names only the org authorization server (issuer = the org URL), so a
    /// client logged in to `default` is told where its tokens come from.
    public var orgIssuerUrl: String

    public init(url: String, adminUrl: String, adminScope: String, metadataUrl: String, orgIssuerUrl: String) {
        self.url = url
        self.adminUrl = adminUrl
        self.adminScope = adminScope
        self.metadataUrl = metadataUrl
        self.orgIssuerUrl = orgIssuerUrl
    }
}
