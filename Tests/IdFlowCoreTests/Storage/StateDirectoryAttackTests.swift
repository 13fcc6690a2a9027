import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// What another local user could try through the state directory: links planted where secrets go, and a
/// window between creating a folder and narrowing its mode.
struct StateDirectoryAttackTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-attack-\(UUID().uuidString)", isDirectory: true)

    func record() -> StoredTokens {
        StoredTokens(
            issuer: "https://o/oauth2/default", clientId: "0oa1",
            tokens: TokenResponse(
                tokenType: "Bearer", accessToken: "at", expiresIn: 3600, scope: "openid", refreshToken: "rt", idToken: nil),
            expiresAt: nil, idTokenClaims: nil, savedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// A victim file the attacker points the link at; it must come out byte for byte as it went in.
    func victim() throws -> URL {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("victim.txt")
        try Data("precious\n".utf8).write(to: file)
        chmod(file.path, 0o600)
        return file
    }

    @Test func aLinkPlantedAtTheTokenFileIsRefusedForReadingAndWriting() throws {
        let victim = try victim()
        let store = TokenStore(directory: root.appendingPathComponent("profiles/default", isDirectory: true))
        try StateDirectory.ensure(store.directory)
        try FileManager.default.createSymbolicLink(at: store.file, withDestinationURL: victim)

        #expect(throws: IdFlowError.self) { try store.load() }
        #expect(throws: IdFlowError.self) { try store.save(record()) }
        do {
            _ = try store.load()
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.message.contains("symbolic link"))
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.file.path) == victim.path)
    }

    @Test func aLinkPlantedAtTheLockFileIsRefused() async throws {
        let victim = try victim()
        let store = TokenStore(directory: root.appendingPathComponent("profiles/default", isDirectory: true))
        try StateDirectory.ensure(store.directory)
        try FileManager.default.createSymbolicLink(at: store.directory.appendingPathComponent("tokens.lock"), withDestinationURL: victim)
        await #expect(throws: IdFlowError.self) {
            try await store.withLock { () throws(IdFlowError) in try store.save(record()) }
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        #expect(try store.load() == nil, "nothing was written while the lock was refused")
    }

    @Test func aTokenFileOwnedByUsButOpenToOthersIsRefused() throws {
        let store = TokenStore(directory: root.appendingPathComponent("profiles/default", isDirectory: true))
        try store.save(record())
        chmod(store.file.path, 0o644)
        #expect(throws: IdFlowError.self) { try store.load() }
    }

    @Test func aDirectoryWhereTheTokenFileGoesIsRefused() throws {
        let store = TokenStore(directory: root.appendingPathComponent("profiles/default", isDirectory: true))
        try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: true)
        #expect(throws: IdFlowError.self) { try store.load() }
    }

    @Test func everyMissingLevelIsCreated0700EvenWithAPermissiveUmask() throws {
        let previous = umask(0)
        defer { umask(previous) }
        let deep = root.appendingPathComponent("a/b/c", isDirectory: true)
        try StateDirectory.ensure(deep)
        for level in [root, root.appendingPathComponent("a"), root.appendingPathComponent("a/b"), deep] {
            #expect(try mode(level) == 0o700, "\(level.path)")
        }
    }
}
