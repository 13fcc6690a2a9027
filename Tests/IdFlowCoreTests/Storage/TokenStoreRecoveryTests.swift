import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// Tokens a server has just issued survive a store that cannot take them: the room is reserved before the grant,
/// a write that still fails leaves a recovery file (or, as a last resort, the tokens on stderr), and the store
/// reads and restores that file, so the login is never lost.
struct TokenStoreRecoveryTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-recovery-\(UUID().uuidString)", isDirectory: true)
    let messages = Locked<[String]>([])

    var store: TokenStore { TokenStore(directory: root.appendingPathComponent("profiles/default", isDirectory: true)) }

    var context: IdFlowContext { TestContext.make(transport: ScriptedTransport([]), messages: messages) }

    func record(_ refresh: String, savedAt seconds: TimeInterval) -> StoredTokens {
        StoredTokens(
            issuer: "https://o/oauth2/default", clientId: "0oa1",
            tokens: TokenResponse(
                tokenType: "Bearer", accessToken: "at-\(refresh)", expiresIn: 3600, scope: "openid offline_access", refreshToken: refresh,
                idToken: nil),
            expiresAt: nil, idTokenClaims: nil, savedAt: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    /// A recovery file as a failed save leaves it: the record, 0600, beside the store.
    func writeRecovery(_ tokens: StoredTokens, named name: String = "tokens.recovery-20270115T080000Z.json") throws -> URL {
        let url = store.directory.appendingPathComponent(name)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try SecureFile.write(try encoder.encode(tokens), to: url)
        return url
    }

    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    // MARK: reading and restoring

    @Test func aRecoveryFileNewerThanTheStoreIsTheLoginAndTheLockPutsItBack() async throws {
        try store.save(record("rt1", savedAt: 0))
        let recovery = try writeRecovery(record("rt2", savedAt: 60))
        #expect(try store.load()?.tokens.refreshToken == "rt2", "readers see the newer tokens at once")
        #expect(FileManager.default.fileExists(atPath: recovery.path), "a reader without the lock changes nothing")

        try await store.withLock(context) { () throws(IdFlowError) in }
        #expect(try names() == ["tokens.json", "tokens.lock"])
        #expect(try store.load()?.tokens.refreshToken == "rt2")
        #expect(try mode(store.file) == 0o600)
        #expect(messages.current.contains { $0.contains("are back in \(store.file.path)") })
    }

    @Test func withNothingElseStoredTheRecoveryFileIsTheLogin() async throws {
        try StateDirectory.ensure(store.directory)
        _ = try writeRecovery(record("rt2", savedAt: 60))
        #expect(try store.loadRequired(profile: "default").tokens.refreshToken == "rt2")
        try await store.withLock { () throws(IdFlowError) in }
        #expect(try names() == ["tokens.json", "tokens.lock"])
    }

    @Test func theNewestOfSeveralRecoveryFilesWinsAndTheOthersGo() async throws {
        try store.save(record("rt1", savedAt: 0))
        _ = try writeRecovery(record("rt3", savedAt: 120), named: "tokens.recovery-20270115T080000Z.json")
        _ = try writeRecovery(record("rt2", savedAt: 60), named: "tokens.recovery-20270115T080000Z-2.json")
        #expect(try store.load()?.tokens.refreshToken == "rt3")
        try await store.withLock { () throws(IdFlowError) in }
        #expect(try names() == ["tokens.json", "tokens.lock"])
        #expect(try store.load()?.tokens.refreshToken == "rt3")
    }

    @Test func aRecoveryFileOlderThanTheStoreIsSpent() async throws {
        try store.save(record("rt2", savedAt: 60))
        _ = try writeRecovery(record("rt1", savedAt: 0))
        #expect(try store.load()?.tokens.refreshToken == "rt2")
        try await store.withLock { () throws(IdFlowError) in }
        #expect(try names() == ["tokens.json", "tokens.lock"])
        #expect(try store.load()?.tokens.refreshToken == "rt2")
    }

    @Test func aRecoveryFileOthersCanReadIsRefusedAndLeftWhereItIs() async throws {
        try store.save(record("rt1", savedAt: 0))
        let recovery = try writeRecovery(record("rt2", savedAt: 60))
        chmod(recovery.path, 0o644)
        #expect(throws: IdFlowError.self) { try store.load() }
        try await store.withLock { () throws(IdFlowError) in }
        #expect(FileManager.default.fileExists(atPath: recovery.path))
        #expect(try String(contentsOf: store.file, encoding: .utf8).contains("rt1"))
    }

    @Test func aSaveLeavesOnlyRecoveryFilesNewerThanWhatItSaved() throws {
        try StateDirectory.ensure(store.directory)
        _ = try writeRecovery(record("rt1", savedAt: 0), named: "tokens.recovery-20270115T080000Z.json")
        _ = try writeRecovery(record("rt3", savedAt: 120), named: "tokens.recovery-20270115T080200Z.json")
        try store.save(record("rt2", savedAt: 60), into: try store.reserve(), context)
        #expect(try names() == ["tokens.json", "tokens.lock", "tokens.recovery-20270115T080200Z.json"])
        #expect(try store.load()?.tokens.refreshToken == "rt3")
    }

    @Test func doctorNamesTheRecoveryFileTheLoginWaitsIn() throws {
        try store.save(record("rt1", savedAt: 0))
        _ = try writeRecovery(record("rt2", savedAt: 60))
        let check = StateDirectoryCheck.run(stateDirectory: root, profile: "default", now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(check.status == .ok)
        #expect(
            check.detail.contains(
                "(kept in tokens.recovery-20270115T080000Z.json after a failed save; `idflow refresh` puts it back in tokens.json)"),
            "\(check.detail)")
    }

    @Test func logoutsClearRemovesTheRecoveryFilesToo() throws {
        try store.save(record("rt1", savedAt: 0))
        _ = try writeRecovery(record("rt2", savedAt: 60))
        try store.clear()
        #expect(try store.load() == nil)
        #expect(try names().allSatisfy { $0 == "tokens.lock" })
    }

    // MARK: the reserved write

    @Test func aReservedSaveWritesThe0600StoreAndLeavesNothingElse() throws {
        let reservation = try store.reserve()
        #expect(reservation.bytes >= 64 * 1024)
        #expect(try names() == ["tokens.lock"], "the room is held by a file without a name")
        try store.save(record("rt1", savedAt: 0), into: reservation, context)
        #expect(try store.load() == record("rt1", savedAt: 0))
        #expect(try mode(store.file) == 0o600)
        #expect(try names() == ["tokens.json", "tokens.lock"])
        let size = (try FileManager.default.attributesOfItem(atPath: store.file.path)[.size] as? NSNumber)?.intValue ?? 0
        #expect(size < 64 * 1024, "the reserved zeros are cut off")
    }

    @Test func aStoreThatCannotTakeAWriteIsRefusedBeforeTheGrant() throws {
        // The profile's folder is a file: nothing can be written there, which reserve finds out.
        try FileManager.default.createDirectory(at: store.directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: store.directory)
        do {
            _ = try store.reserve()
            Issue.record("expected a refusal")
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.message.contains("cannot take a write"))
            #expect(error.message.contains("no tokens were asked for"))
            #expect(error.hint?.contains("free space") == true)
        }
    }

    /// The rename over tokens.json fails after the grant (here: a folder stands in its place): the complete copy
    /// becomes the recovery file, the error says where, and once the obstacle is gone the lock puts it back.
    @Test func aWriteThatFailsAfterTheGrantLeavesARecoveryFile() async throws {
        try store.save(record("rt1", savedAt: 0))
        let reservation = try store.reserve()
        try FileManager.default.removeItem(at: store.file)
        try FileManager.default.createDirectory(at: store.file.appendingPathComponent("obstacle"), withIntermediateDirectories: true)
        do {
            try store.save(record("rt2", savedAt: 60), into: reservation, context)
            Issue.record("expected the save to fail")
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.message.contains("could not be saved to \(store.file.path)"))
            #expect(error.message.contains("kept in \(store.directory.path)/tokens.recovery-"))
            #expect(error.message.contains("at risk"))
            #expect(error.hint?.contains("idflow refresh") == true)
        }
        let recoveries = store.recoveryFiles
        try #require(recoveries.count == 1)
        #expect(try mode(recoveries[0]) == 0o600)
        #expect(try names().allSatisfy { !$0.hasSuffix(".tmp") }, "the complete copy was renamed, not copied")

        try FileManager.default.removeItem(at: store.file)
        #expect(try store.load()?.tokens.refreshToken == "rt2")
        try await store.withLock { () throws(IdFlowError) in }
        #expect(try names() == ["tokens.json", "tokens.lock"])
        #expect(try store.load()?.tokens.refreshToken == "rt2")
    }

    /// Neither tokens.json nor a recovery file can be written (the profile's folder is gone and a file stands in its
    /// place): the tokens are printed on stderr between labelled lines, and saving them as told restores the login.
    @Test func whenNoFileCanBeWrittenTheTokensGoToStderrLabelled() throws {
        try store.save(record("rt1", savedAt: 0))
        let reservation = try store.reserve()
        let moved = root.appendingPathComponent("moved", isDirectory: true)
        try FileManager.default.moveItem(at: store.directory, to: moved)
        try Data().write(to: store.directory)
        do {
            try store.save(record("rt2", savedAt: 60), into: reservation, context)
            Issue.record("expected the save to fail")
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.message.contains("nor to a recovery file"))
            #expect(error.message.contains("printed above between the BEGIN and END lines"))
            #expect(error.hint?.contains("umask 077") == true)
        }
        let lines = messages.current.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = try #require(lines.firstIndex { $0.hasPrefix("----- BEGIN IDFLOW TOKENS OF PROFILE default") })
        let end = try #require(lines.firstIndex { $0.hasPrefix("----- END IDFLOW TOKENS OF PROFILE default") })
        let printed = lines[(begin + 1)..<end].joined(separator: "\n")
        #expect(printed.contains("\"refresh_token\" : \"rt2\"") || printed.contains("\"refresh_token\":\"rt2\""))
        let suggested = try #require(lines[begin].components(separatedBy: "save them as ").last?.components(separatedBy: " -----").first)

        // The user puts the folder back and saves the printed lines where the hint says.
        try FileManager.default.removeItem(at: store.directory)
        try FileManager.default.moveItem(at: moved, to: store.directory)
        #expect(URL(fileURLWithPath: suggested).deletingLastPathComponent().path == store.directory.path)
        try SecureFile.write(Data(printed.utf8), to: URL(fileURLWithPath: suggested))
        #expect(try store.load()?.tokens.refreshToken == "rt2")
    }

    /// A login whose grant ran without the lock, and which cannot get it afterwards: the tokens go to a recovery
    /// file in the reserved room rather than being dropped.
    @Test func aLockThatCannotBeHadAfterTheGrantLeavesARecoveryFile() async throws {
        try store.save(record("rt1", savedAt: 0))
        let reservation = try store.reserve()
        let held = try await FileLock.acquire(store.directory.appendingPathComponent("tokens.lock"))
        defer { held.release() }
        do {
            try await store.saveUnderLock(record("rt2", savedAt: 60), into: reservation, context, lockTimeout: .milliseconds(100))
            Issue.record("expected the save to fail")
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.message.contains("another idflow run holds"))
            #expect(error.message.contains("kept in"))
        }
        #expect(store.recoveryFiles.count == 1)
        #expect(try store.load()?.tokens.refreshToken == "rt2")
        #expect(try String(contentsOf: store.file, encoding: .utf8).contains("rt1"), "tokens.json is not touched without the lock")
    }
}
