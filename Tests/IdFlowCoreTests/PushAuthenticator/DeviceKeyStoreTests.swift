import Crypto
import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The device keys on disk: 0600 files in 0700 folders, the user-verification key sealed under the PIN.
struct DeviceKeyStoreTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-devices-\(UUID().uuidString)")
    var store: DeviceStore { DeviceStore(stateDirectory: stateDirectory) }
    let org = URL(string: "https://o.example.com")!
    /// Fewer scrypt rounds than the default keep the tests fast; the file records the rounds it was sealed with.
    let rounds = 1 << 10

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// One org however its URL is written; a folder an older idflow named with the default port is still found.
    @Test func anOrgHasOneFolderHoweverItsURLIsWritten() throws {
        #expect(try store.org(URL(string: "https://O.example.com.:443")!).url.lastPathComponent == "o.example.com")
        let older = store.root.appendingPathComponent("old.example.com_443", isDirectory: true)
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(try store.org(URL(string: "https://old.example.com")!).url.lastPathComponent == "old.example.com_443")
    }

    @Test func keysAre0600FilesIn0700FoldersUnderTheOrgsFolder() throws {
        let folder = try store.org(org)
        #expect(folder.url.lastPathComponent == "o.example.com")
        #expect(try store.org(URL(string: "http://127.0.0.1:8080")!).url.lastPathComponent == "127.0.0.1_8080")
        let pop = DeviceKey.generate(.proofOfPossession)
        let uv = DeviceKey.generate(.userVerification)
        try folder.save(pop, pin: nil, now: Date())
        try folder.save(uv, pin: Secret("246813"), rounds: rounds, now: Date())
        for file in [try folder.keyFile(pop.kid), try folder.keyFile(uv.kid)] {
            #expect(try mode(file) == 0o600)
        }
        for directory in [store.root, folder.url, folder.keysFolder] {
            #expect(try mode(directory) == 0o700)
        }
        #expect(pop.kid == pop.kid.uppercased() && UUID(uuidString: pop.kid) != nil)
        let loaded = try folder.silentKey(pop.kid, role: .proofOfPossession)
        #expect(loaded.publicJWK == pop.publicJWK)
    }

    @Test func theUserVerificationKeyIsUnreadableWithoutThePIN() throws {
        let folder = try store.org(org)
        let uv = DeviceKey.generate(.userVerification)
        try folder.save(uv, pin: Secret("246813"), rounds: rounds, now: Date())
        let text = String(decoding: try Data(contentsOf: try folder.keyFile(uv.kid)), as: UTF8.self)
        #expect(!text.contains(Base64URL.encode(uv.privateKey.rawRepresentation)))
        #expect(!text.contains("privateKey"))
        // It is not a silent key: nothing reads it without the PIN.
        #expect(throws: IdFlowError.self) { try folder.silentKey(uv.kid, role: .userVerification) }

        guard case .wrongPIN = folder.userVerificationKey(uv.kid, pin: Secret("135799")) else {
            Issue.record("a wrong PIN must not unlock the key")
            return
        }
        guard case .unlocked(let key) = folder.userVerificationKey(uv.kid, pin: Secret("246813")) else {
            Issue.record("the right PIN must unlock the key")
            return
        }
        #expect(key.publicJWK == uv.publicJWK)
        #expect(key.role == .userVerification)
    }

    @Test func aMissingUserVerificationKeyIsPermanentlyUnavailable() throws {
        let folder = try store.org(org)
        guard case .unavailable = folder.userVerificationKey("0B0E3A44-2C56-4F0D-9C0D-4E1D7A1F5C21", pin: Secret("1")) else {
            Issue.record("expected unavailable")
            return
        }
    }

    @Test func enrollmentRecordsRoundTripAndServerIdsCannotLeaveTheFolder() throws {
        let folder = try store.org(org)
        let record = EnrollmentRecord(
            enrollmentId: "pfd1", authenticatorId: "aut1", orgUrl: org.absoluteString, orgId: "00o1", oauthClientId: "0oa1", userId: "00u1",
            username: "jo@example.com", displayName: "ci", deviceId: "guo1", clientInstanceId: "cli1", methodEnrollmentId: "opf1",
            pendingUrl: "https://o.example.com/idp/myaccount/app-authenticators/pfd1/push/notifications", selfUrl: nil, pushToken: "",
            proofOfPossessionKeyId: "K1", userVerificationKeyId: nil, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        try folder.save(record)
        #expect(try folder.enrollment("pfd1") == record)
        #expect(try store.enrollments(orgURL: org) == [record])
        #expect(try store.enrollments(orgURL: nil) == [record])
        #expect(try mode(folder.enrollmentsFolder.appendingPathComponent("pfd1.json")) == 0o600)
        var hostile = record
        hostile.enrollmentId = "../../escape"
        #expect(throws: IdFlowError.self) { try folder.save(hostile) }
        try folder.remove(record)
        #expect(try store.enrollments(orgURL: nil).isEmpty)
    }
}
