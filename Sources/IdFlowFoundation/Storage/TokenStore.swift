import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// issuer (`--issuer`, `IDFLOW_ISSUER`, the profile's `issuer`) that names another one is refused
    /// rather than obeyed: it would hand the profile's tokens to a server that never issued them.
    public func pinnedIssuer(_ context: IdFlowContext) throws(IdFlowError) -> URL {
        guard let stored = URL(string: issuer) else { throw .localState("the stored issuer \(issuer) is not a URL") }
        if let configured = context.configuration.issuer, Self.normalized(configured.absoluteString) != Self.normalized(issuer) {
            throw .configuration(
                "the tokens stored for profile \(context.configuration.profile) were issued by \(issuer), not by the configured issuer \(configured.absoluteString); refusing to send them there",
                hint:
                    "drop --issuer (and IDFLOW_ISSUER or OKTA_OAUTH2_ISSUER) to use the stored login, pass the token itself to send it elsewhere, or choose another --profile"
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
///
/// Tokens a server has just issued are never lost to a store that cannot be written: the room for the write is
/// taken before the grant (`reserve`), and tokens that still cannot be saved after it go to a recovery file
/// beside the store (`tokens.recovery-{UTC time}.json`, the same record), or to stderr when even that fails. A
/// recovery file at least as new as tokens.json is what `load` returns, and the next holder of the lock moves it
/// over tokens.json (a rename, which needs no free space), so the login survives the failed write.
public struct TokenStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var file: URL { directory.appendingPathComponent("tokens.json") }
    var lockFile: URL { directory.appendingPathComponent("tokens.lock") }
    var profile: String { directory.lastPathComponent }

    static let recoveryPrefix = "tokens.recovery-"

    /// The recovery files beside the store (`tokens.recovery-*.json`), by name.
    public var recoveryFiles: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(Self.recoveryPrefix) && $0.hasSuffix(".json") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// The stored tokens, nil when nothing was stored: tokens.json, or the newest recovery file when it is at
    /// least as new (its tokens came from a grant whose answer tokens.json could not take). A file that cannot be
    /// decoded is an error, never silently replaced, because it may hold the only refresh token.
    public func load() throws(IdFlowError) -> StoredTokens? {
        // The recovery files first: one the lock's holder moves over tokens.json meanwhile is then read there.
        let recovered = try newestRecovery()
        let stored = try read(file)
        guard let recovered, recovered.tokens.savedAt >= stored?.savedAt ?? .distantPast else { return stored }
        return recovered.tokens
    }

    /// The stored tokens, or the local-state error (exit 12) that tells the user to log in for `profile`.
    public func loadRequired(profile: String, hint: String = "log in first with `idflow login-pkce`") throws(IdFlowError) -> StoredTokens {
        guard let stored = try load() else {
            throw .localState("nothing is stored for profile \(profile)", hint: hint)
        }
        return stored
    }

    /// Saves tokens that no grant just issued (a record edited in place, a test's); tokens from a server go through
    /// `save(_:into:_:)` with the room reserved before the grant.
    public func save(_ tokens: StoredTokens) throws(IdFlowError) {
        try SecureFile.write(try Self.encode(tokens), to: file)
        removeRecoveryFiles(notNewerThan: tokens.savedAt)
    }

    /// Before a grant: proves the store can take the write its answer will need (the folder, the lock file, free
    /// space and the file-size limit for the temporary file) and holds that room for `save(_:into:_:)`. When it
    /// cannot, the error (exit 12) comes before anything is asked of the server, so the stored login is unchanged.
    public func reserve() throws(IdFlowError) -> SecureFile.Reservation {
        do throws(IdFlowError) {
            try StateDirectory.ensure(directory)
            if let fd = try PrivateFileCheck.openFile(lockFile, flags: O_RDWR | O_CREAT) { close(fd) }
            return try SecureFile.reserve(reservedBytes, beside: file)
        } catch {
            throw .localState(
                "the token store of profile \(profile) cannot take a write: \(error.message); no tokens were asked for, so the stored login is unchanged",
                hint:
                    "free space in \(directory.path) (idflow needs \(reservedBytes / 1024) KiB there), or fix its permissions or the file-size limit (`ulimit -f`), then run the command again"
            )
        }
    }

    /// Room for a record several times the size of the current one (a new login's ID token may carry more claims),
    /// and never less than 64 KiB.
    var reservedBytes: Int {
        var info = stat()
        let current = stat(file.path, &info) == 0 ? Int(info.st_size) : 0
        return max(64 * 1024, 4 * current)
    }

    /// Saves tokens a server has just issued into the room `reserve` took before the grant; call it holding the
    /// lock. When tokens.json still cannot be written, the tokens go to a recovery file beside it, or to stderr
    /// (labelled, the one copy) when even that fails, and the error says the login is at risk and how to get it back.
    public func save(_ tokens: StoredTokens, into reservation: SecureFile.Reservation, _ context: IdFlowContext) throws(IdFlowError) {
        let data = try Self.encode(tokens)
        if let unwritten = SecureFile.write(data, to: file, using: reservation) {
            throw keepElsewhere(data, unwritten, context)
        }
        removeRecoveryFiles(notNewerThan: tokens.savedAt)
    }

    /// `save(_:into:_:)` under the profile's lock, for a login whose grant ran without it. A lock that cannot be
    /// had does not cost the tokens: they go to a recovery file, written in the reserved room.
    public func saveUnderLock(
        _ tokens: StoredTokens, into reservation: SecureFile.Reservation, _ context: IdFlowContext,
        lockTimeout: Duration = TokenStore.lockTimeout
    ) async throws(IdFlowError) {
        let lock: FileLock
        do throws(IdFlowError) {
            lock = try await FileLock.acquire(lockFile, timeout: lockTimeout)
        } catch {
            let data = try Self.encode(tokens)
            let recovery = unusedRecoveryFile(at: context.now())
            guard let unwritten = SecureFile.write(data, to: recovery, using: reservation) else {
                throw atRisk(reason: error.message, keptIn: recovery)
            }
            throw keepElsewhere(data, .init(reason: "\(error.message); \(unwritten.reason)", completeCopy: unwritten.completeCopy), context)
        }
        defer { lock.release() }
        try save(tokens, into: reservation, context)
    }

    public func clear() throws(IdFlowError) {
        try SecureFile.remove(file)
        for url in recoveryFiles { try SecureFile.remove(url) }
    }

    /// How long a run waits for another to release the profile's lock.
    public static let lockTimeout: Duration = .seconds(120)

    /// Runs `body` holding the profile's exclusive lock; a waiter sees what the holder wrote. A recovery file left
    /// by a failed save is moved over tokens.json first (`settleRecovery`), and `context`, when given, is told.
    public func withLock<Result>(
        timeout: Duration = TokenStore.lockTimeout, _ context: IdFlowContext? = nil, _ body: () async throws(IdFlowError) -> Result
    ) async throws(IdFlowError) -> Result {
        let lock = try await FileLock.acquire(lockFile, timeout: timeout)
        defer { lock.release() }
        if let promoted = settleRecovery() {
            context?.message("the tokens kept in \(promoted.path) after a failed save are back in \(file.path)")
        }
        return try await body()
    }

    /// Under the lock: the newest recovery file, when at least as new as tokens.json, is renamed over it (no free
    /// space needed), and the recovery files older than the store are removed. Returns the file moved; nil when
    /// there was none, or when a file cannot be read or moved (then all are left as they are, and `load` reports or
    /// uses them).
    @discardableResult
    func settleRecovery() -> URL? {
        let stored: StoredTokens?
        do throws(IdFlowError) {
            stored = try read(file)
        } catch {
            return nil
        }
        guard let newest = try? newestRecovery() else { return nil }
        guard newest.tokens.savedAt >= stored?.savedAt ?? .distantPast else {
            removeRecoveryFiles(notNewerThan: stored?.savedAt ?? .distantPast)
            return nil
        }
        guard rename(newest.url.path, file.path) == 0 else { return nil }
        SecureFile.syncDirectory(directory)
        removeRecoveryFiles(notNewerThan: newest.tokens.savedAt)
        return newest.url
    }

    /// The newest recovery file and its tokens (a later name breaks a tie); a file that vanished meanwhile (moved
    /// by the lock's holder) is skipped.
    func newestRecovery() throws(IdFlowError) -> (url: URL, tokens: StoredTokens)? {
        var newest: (url: URL, tokens: StoredTokens)?
        for url in recoveryFiles {
            guard let tokens = try read(url) else { continue }
            if tokens.savedAt >= newest?.tokens.savedAt ?? .distantPast { newest = (url, tokens) }
        }
        return newest
    }

    /// Removes the recovery files whose tokens are no newer than `date` (the store holds newer ones), leaving any
    /// that cannot be read.
    private func removeRecoveryFiles(notNewerThan date: Date) {
        for url in recoveryFiles {
            guard let tokens = try? read(url), tokens.savedAt <= date else { continue }
            unlink(url.path)
        }
    }

    /// `tokens.recovery-20260101T120000Z.json`, or with `-2`, `-3`… for the attempts after the first.
    func recoveryFile(at date: Date, attempt: Int = 1) -> URL {
        let stamp = date.formatted(Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted))
        return directory.appendingPathComponent("\(Self.recoveryPrefix)\(stamp)\(attempt > 1 ? "-\(attempt)" : "").json")
    }

    /// The first recovery file name for `date` that is not taken.
    private func unusedRecoveryFile(at date: Date) -> URL {
        var attempt = 1
        while access(recoveryFile(at: date, attempt: attempt).path, F_OK) == 0 { attempt += 1 }
        return recoveryFile(at: date, attempt: attempt)
    }

    /// After a grant whose tokens tokens.json could not take: the tokens in a recovery file (the complete copy the
    /// failed write left, given the name; else a new file), or printed on stderr between labelled lines when no
    /// file can be written. Returns the error to throw, which says where the tokens are and how to put them back.
    private func keepElsewhere(_ data: Data, _ unwritten: SecureFile.Unwritten, _ context: IdFlowContext) -> IdFlowError {
        defer { if let completeCopy = unwritten.completeCopy { unlink(completeCopy.path) } }
        let recovery = unusedRecoveryFile(at: context.now())
        let hint = "check the state directory's permissions and free space"
        do throws(IdFlowError) {
            if let completeCopy = unwritten.completeCopy, (try? SecureFile.publish(completeCopy, as: recovery, hint: hint)) == true {
                return atRisk(reason: unwritten.reason, keptIn: recovery)
            }
            guard try SecureFile.create(data, at: recovery, hint: hint) else {
                throw .localState("\(recovery.path) appeared meanwhile")
            }
            return atRisk(reason: unwritten.reason, keptIn: recovery)
        } catch {
            context.notice("----- BEGIN IDFLOW TOKENS OF PROFILE \(profile): the only copy; save them as \(recovery.path) -----")
            context.notice(String(decoding: data, as: UTF8.self))
            context.notice("----- END IDFLOW TOKENS OF PROFILE \(profile) -----")
            return .localState(
                "\(couldNotSave(unwritten.reason)), nor to a recovery file (\(error.message)). They are printed above between the BEGIN and END lines and nowhere else: the server may already have retired the stored refresh token, so the login is lost unless they are kept",
                hint:
                    "once \(directory.path) can be written again, save the lines between BEGIN and END as \(recovery.path) with mode 0600 (`umask 077; cat > \(ShellWord.quote(recovery.path))`, paste, Ctrl-D), then run `idflow refresh\(profileFlag)`: it takes the tokens from that file"
            )
        }
    }

    /// The error of tokens kept in a recovery file: the login is at risk until they are back in tokens.json.
    private func atRisk(reason: String, keptIn recovery: URL) -> IdFlowError {
        .localState(
            "\(couldNotSave(reason)); they were kept in \(recovery.path) instead. The login is at risk until they are back in tokens.json: the server may already have retired the refresh token stored there, so do not delete that file",
            hint:
                "once \(directory.path) can be written again (free space, permissions, `ulimit -f`), run `idflow refresh\(profileFlag)`: it takes the tokens from the recovery file and puts them back in tokens.json (or move it there yourself: mv \(ShellWord.quote(recovery.path)) \(ShellWord.quote(file.path)))"
        )
    }

    private func couldNotSave(_ reason: String) -> String {
        "the new tokens of profile \(profile) could not be saved to \(file.path) (\(reason))"
    }

    /// ` --profile NAME` unless the profile is the default one.
    private var profileFlag: String { profile == "default" ? "" : " --profile \(ShellWord.quote(profile))" }

    private func read(_ url: URL) throws(IdFlowError) -> StoredTokens? {
        guard let data = try SecureFile.read(url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(StoredTokens.self, from: data)
        } catch {
            throw .localState(
                "the token store \(url.path) cannot be read: \(error)", hint: "move it aside and log in again with `idflow login-pkce`")
        }
    }

    private static func encode(_ tokens: StoredTokens) throws(IdFlowError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            return try encoder.encode(tokens)
        } catch {
            throw .internalFailure("cannot encode the token store: \(error)")
        }
    }
}
