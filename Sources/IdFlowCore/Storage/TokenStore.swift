import Foundation

/// What a profile keeps after a login: enough to refresh (issuer, client, refresh token) and to show.
public struct StoredTokens: Codable, Sendable, Equatable {
    public var issuer: String
    public var clientId: String
    public var tokens: TokenResponse
    public var expiresAt: Date?
    public var idTokenClaims: JSONValue?
    public var savedAt: Date
    /// The key a DPoP-bound login's tokens are bound to (`DPoPKey.stored`); every use of them is signed with it.
    public var dpopKey: String?

    public init(issuer: String, clientId: String, tokens: TokenResponse, expiresAt: Date?, idTokenClaims: JSONValue?, savedAt: Date) {
        self.issuer = issuer
        self.clientId = clientId
        self.tokens = tokens
        self.expiresAt = expiresAt
        self.idTokenClaims = idTokenClaims
        self.savedAt = savedAt
    }
}

extension StoredTokens {
    /// When the stored token of `kind` expires: the access token's `expires_at`, the ID token's `exp` claim; nil
    /// when unknown (and always for the refresh token, whose lifetime only the server knows).
    public func expiry(of kind: TokenKind) -> Date? {
        switch kind {
        case .access: return expiresAt
        case .id:
            guard tokens.idToken != nil, let exp = idTokenClaims?["exp"], case .number(let seconds) = exp else { return nil }
            return Date(timeIntervalSince1970: seconds)
        case .refresh: return nil
        }
    }

    /// The issuer these tokens came from, which is the only server they are ever sent to. A configured
    /// issuer (`--issuer`, `OKTA_OAUTH2_ISSUER`, the profile's `issuer`) that names another one is refused
    /// rather than obeyed: it would hand the profile's tokens to a server that never issued them.
    public func pinnedIssuer(_ context: IdFlowContext) throws(IdFlowError) -> URL {
        guard let stored = URL(string: issuer) else { throw .localState("the stored issuer \(issuer) is not a URL") }
        if let configured = context.configuration.issuer, Self.normalized(configured.absoluteString) != Self.normalized(issuer) {
            throw .configuration(
                "the tokens stored for profile \(context.configuration.profile) were issued by \(issuer), not by the configured issuer \(configured.absoluteString); refusing to send them there",
                hint:
                    "drop --issuer (and OKTA_OAUTH2_ISSUER) to use the stored login, pass the token itself to send it elsewhere, or choose another --profile"
            )
        }
        return stored
    }

    private static func normalized(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}

/// The token store of one profile: `{state-dir}/profiles/{profile}/tokens.json` (0600, written atomically),
/// guarded by `tokens.lock` so concurrent runs take turns.
public struct TokenStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var file: URL { directory.appendingPathComponent("tokens.json") }
    var lockFile: URL { directory.appendingPathComponent("tokens.lock") }

    /// The stored tokens, nil when nothing was stored; a file that cannot be decoded is an error, never
    /// silently replaced, because it may hold the only refresh token.
    public func load() throws(IdFlowError) -> StoredTokens? {
        guard let data = try SecureFile.read(file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(StoredTokens.self, from: data)
        } catch {
            throw .localState(
                "the token store \(file.path) cannot be read: \(error)", hint: "move it aside and log in again with `idflow login-pkce`")
        }
    }

    /// The stored tokens, or the local-state error (exit 12) that tells the user to log in for `profile`.
    public func loadRequired(profile: String, hint: String = "log in first with `idflow login-pkce`") throws(IdFlowError) -> StoredTokens {
        guard let stored = try load() else {
            throw .localState("nothing is stored for profile \(profile)", hint: hint)
        }
        return stored
    }

    public func save(_ tokens: StoredTokens) throws(IdFlowError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(tokens)
        } catch {
            throw .internalFailure("cannot encode the token store: \(error)")
        }
        try SecureFile.write(data, to: file)
    }

    public func clear() throws(IdFlowError) {
        try SecureFile.remove(file)
    }

    /// Runs `body` holding the profile's exclusive lock; a waiter sees what the holder wrote.
    public func withLock<Result>(timeout: Duration = .seconds(120), _ body: () async throws(IdFlowError) -> Result)
        async throws(IdFlowError) -> Result
    {
        let lock = try await FileLock.acquire(lockFile, timeout: timeout)
        defer { lock.release() }
        return try await body()
    }
}
