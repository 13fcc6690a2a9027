/// What a client needs to talk to a running sandbox; `idflow sandbox` prints it as one JSON line.
public struct SandboxInfo: Codable, Sendable, Equatable {
    /// `http://127.0.0.1:PORT`, the base of every URL the sandbox writes.
    public var orgUrl: String
    /// The default custom authorization server: `"\(orgUrl)/oauth2/default"`.
    public var issuer: String
    /// The management API token for `Authorization: SSWS …`.
    public var apiToken: String
    /// The public OAuth client id.
    public var clientId: String
    /// The first registered redirect URI.
    public var redirectUri: String

    public init(orgUrl: String, issuer: String, apiToken: String, clientId: String, redirectUri: String) {
        self.orgUrl = orgUrl
        self.issuer = issuer
        self.apiToken = apiToken
        self.clientId = clientId
        self.redirectUri = redirectUri
    }
}
