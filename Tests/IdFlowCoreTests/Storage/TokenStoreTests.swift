import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

struct TokenStoreTests {
    func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("idflow-store-\(UUID().uuidString)/profiles/default")
    }

    func record(_ refresh: String) -> StoredTokens {
        StoredTokens(
            issuer: "https://o/oauth2/default", clientId: "0oa1",
            tokens: TokenResponse(
                tokenType: "Bearer", accessToken: "at-\(refresh)", expiresIn: 3600, scope: "openid", refreshToken: refresh, idToken: nil),
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000), idTokenClaims: nil, savedAt: Date(timeIntervalSince1970: 1_799_996_400))
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func savesA0600FileInA0700DirectoryAndReadsItBack() throws {
        let store = TokenStore(directory: directory())
        #expect(try store.load() == nil)
        try store.save(record("rt1"))
        #expect(try store.load() == record("rt1"))
        #expect(try mode(store.file) == 0o600)
        #expect(try mode(store.directory) == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        let store = TokenStore(directory: directory())
        try store.save(record("rt1"))
        chmod(store.file.path, 0o644)
        do {
            _ = try store.load()
            Issue.record("expected a refusal")
        } catch {
            #expect(error.exitStatus == .localState)
        }
    }

    @Test func aCorruptFileIsReportedAndKept() throws {
        let store = TokenStore(directory: directory())
        try SecureFile.write(Data("{not json".utf8), to: store.file)
        #expect(throws: IdFlowError.self) { try store.load() }
        #expect(FileManager.default.fileExists(atPath: store.file.path), "the file may hold the only refresh token")
    }

    /// Ten writers each read, bump a counter and write under the lock: no update is lost.
    @Test func theLockSerialisesReadModifyWrite() async throws {
        let store = TokenStore(directory: directory())
        try store.save(record("0"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await store.withLock { () throws(IdFlowError) in
                        let current = try store.load()!
                        try? await Task.sleep(for: .milliseconds(5))
                        try store.save(self.record(String(Int(current.tokens.refreshToken!)! + 1)))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.load()?.tokens.refreshToken == "10")
    }
}
