import Foundation

extension Setting {
    private typealias Variable = ConfigurationResolver.Variable
    private typealias NetworkVariable = ConfigurationResolver.NetworkVariable

    /// A profile or okta.yaml value that counts only when it is not empty.
    private static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }

    /// Every setting, in the order `doctor` lists them. Each line is the whole of where it may come from.
    package static let all: [Setting] = [
        Setting(
            .orgURL,
            [
                .flag("--org-url"), .environment(Variable.orgURL), .profile(key: "orgUrl", { $0.orgUrl }),
                .oktaYAML(key: "okta.client.orgUrl", { okta, _ in okta.orgUrl }),
            ], help: "The Okta org, e.g. https://dev-123.okta.com (env OKTA_CLIENT_ORGURL).", valueName: "url"),
        Setting(
            .apiToken,
            [
                .flag("--api-token-file"), .environment(Variable.apiToken),
                .profile(key: "apiTokenFile", { $0.apiTokenFile }), .profile(key: "apiToken", { nonEmpty($0.apiToken) }),
                // Okta's token only when the profile names none, not even an empty one.
                .oktaYAML(key: "okta.client.token", { okta, entry in entry?.apiToken == nil ? nonEmpty(okta.token) : nil }),
            ], kind: .secret,
            help: "A file holding the management API token, sent as `SSWS` (env OKTA_CLIENT_TOKEN holds the token itself).",
            valueName: "path"),
        Setting(
            .issuer,
            [
                .flag("--issuer"), .environment(Variable.issuer), .environment(Variable.oktaIssuer),
                .profile(key: "issuer", { $0.issuer }),
            ], help: "The authorization server; default {org}/oauth2/default (env IDFLOW_ISSUER, or Okta's OKTA_OAUTH2_ISSUER).",
            valueName: "url"),
        Setting(
            .clientID,
            [
                .flag("--client-id"), .environment(Variable.clientID), .environment(Variable.oktaClientID),
                .profile(key: "clientId", { $0.clientId }),
            ], help: "The OAuth client (native app) id (env IDFLOW_CLIENT_ID, or Okta's OKTA_OAUTH2_CLIENTID).", valueName: "id"),
        Setting(
            .redirectURI,
            [
                .flag("--redirect-uri"), .environment(Variable.redirectURI), .environment(Variable.oktaRedirectURI),
                .profile(key: "redirectUri", { $0.redirectUri }),
            ], help: "The registered redirect URI (env IDFLOW_REDIRECT_URI, or Okta's OKTA_OAUTH2_REDIRECTURI).", valueName: "uri"),
        Setting(
            .scope, [.flag("--scope"), .environment(Variable.scope), .profile(key: "scope", { $0.scope })],
            unset: Configuration.defaultScope, help: "OAuth scopes; default \"openid profile email offline_access\" (env IDFLOW_SCOPE).",
            valueName: "scopes"),
        Setting(
            .stateDir,
            [
                .flag("--state-dir"), .environment(Variable.stateDirectory),
                .profile(key: "stateDir", { $0.stateDir }),
            ], help: "Where tokens and device keys live; default $XDG_STATE_HOME/idflow (env IDFLOW_STATE_DIR).", valueName: "dir"),
        Setting(.tokenServer, [.environment(Variable.tokenServer), .profile(key: "tokenServer", { $0.tokenServer })]),
        Setting(
            .clientSecret,
            [
                .environment(Variable.clientSecretFile), .environment(Variable.clientSecret),
                .profile(key: "clientSecretFile", { $0.clientSecretFile }),
            ], kind: .secret),
        Setting(
            .timeout,
            [
                .numberFlag("--timeout"), .environment(Variable.timeout),
                .numberProfile(key: "timeout", { $0.timeout }),
            ], unset: "30", help: "Per-request timeout in seconds; default 30 (env IDFLOW_TIMEOUT).", valueName: "seconds"),
        Setting(
            .maxRetries,
            [
                .numberFlag("--max-retries"), .environment(Variable.maxRetries),
                .numberProfile(key: "maxRetries", { $0.maxRetries.map(Double.init) }),
            ], unset: "3", help: "Retries for 429, 503 and network errors on safe requests; default 3 (env IDFLOW_MAX_RETRIES).",
            valueName: "n"),
        Setting(
            .authorizationMode,
            [
                .flag("--authorization-mode"), .environment(ServiceAppVariable.authorizationMode),
                .profile(key: "authorizationMode", { $0.authorizationMode }),
                .oktaYAML(key: "okta.client.authorizationMode", { okta, _ in okta.authorizationMode }),
            ], unset: ManagementMode.apiToken.rawValue,
            help:
                "How management calls authenticate: SSWS (the API token, default) or PrivateKey (a service app).",
            valueName: "mode"),
        Setting(
            .serviceClientID,
            [
                .flag("--service-client-id"), .environment(ServiceAppVariable.clientID),
                .profile(key: "serviceClientId", { $0.serviceClientId }),
                .oktaYAML(key: "okta.client.clientId", { okta, _ in okta.clientId }),
            ], help: "The service app's client id in PrivateKey mode (env OKTA_CLIENT_CLIENTID).", valueName: "id"),
        Setting(
            .serviceScopes,
            [
                .flag("--service-scopes"), .environment(ServiceAppVariable.scopes),
                .profile(key: "serviceScopes", { $0.serviceScopes }),
                .oktaYAML(key: "okta.client.scopes", { okta, _ in okta.scopes?.text }),
            ], unset: ServiceAppSettings.defaultScopes.joined(separator: " "),
            help:
                "The service app's scopes; default \"okta.users.read okta.users.manage\".",
            valueName: "scopes"),
        Setting(
            .privateKey,
            [
                .flag("--private-key-file"), .environment(ServiceAppVariable.privateKey),
                .profile(key: "privateKeyFile", { $0.privateKeyFile }),
                .oktaYAML(key: "okta.client.privateKey", { okta, _ in okta.privateKey }),
            ], kind: .key,
            help:
                "The service app's PEM private key (RS256 or ES256), refused when others can read it.",
            valueName: "path"),
        Setting(
            .privateKeyID,
            [
                .flag("--private-key-id"), .environment(ServiceAppVariable.keyID),
                .profile(key: "privateKeyId", { $0.privateKeyId }), .oktaYAML(key: "okta.client.kid", { okta, _ in okta.kid }),
            ], help: "The key id (kid) put in the client assertion's header (env OKTA_CLIENT_KID).", valueName: "kid"),
        Setting(
            .dpop,
            [
                .flag("--dpop"), .environment(ServiceAppVariable.dpop),
                .profile(key: "dpop", { $0.dpop.map { String($0) } }),
                .oktaYAML(key: "okta.client.dpopEnabled", { okta, _ in okta.dpopEnabled.map { String($0.value) } }),
            ], unset: "false",
            help:
                "DPoP-bind the tokens this command gets (RFC 9449); each request then carries a proof."
        ),
        Setting(
            .caFile,
            [.flag("--ca-file"), .environment(NetworkVariable.caFile), .profile(key: "caFile", { nonEmpty($0.caFile) })],
            kind: .path,
            help:
                "Trust this PEM bundle's CAs besides the system's (env IDFLOW_CA_FILE); verification is never off.",
            valueName: "path"),
        Setting(
            .clientCert,
            [
                .flag("--client-cert"), .environment(NetworkVariable.clientCertificate),
                .profile(key: "clientCert", { nonEmpty($0.clientCert) }),
            ], kind: .path,
            help: "Present this PEM TLS client certificate (mutual TLS).",
            valueName: "path"),
        Setting(
            .clientKey,
            [
                .flag("--client-key"), .environment(NetworkVariable.clientKey),
                .profile(key: "clientKey", { nonEmpty($0.clientKey) }),
            ], kind: .path, help: "The client certificate's PEM private key, refused when others can read it (env IDFLOW_CLIENT_KEY).",
            valueName: "path"),
    ]
}
