import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `idflow passkey list | show | delete`, the built binary over passkeys this test keeps through the store, as a
/// sign-up would have: what a script reads, and that no key ever reaches stdout.
@Suite(.serialized) struct PasskeyCommandsTests {
    static let created = Date(timeIntervalSince1970: 1_790_000_000)

    /// A running sandbox and two passkeys kept for its org: one plain, one sealed under a PIN.
    func kept() async throws -> (LiveSandbox, plain: StoredPasskey, sealed: StoredPasskey) {
        let sandbox = try await LiveSandbox.start()
        let party = try RelyingParty(origin: try #require(URL(string: sandbox.orgURL)))
        let store = PasskeyStore(stateDirectory: sandbox.stateDirectory)
        let plain = try store.create(
            relyingParty: party, userHandle: Array("00uplain0000000000a1".utf8), aaguid: UUID(), pin: nil, now: Self.created
        ).passkey
        let sealed = try store.create(
            relyingParty: party, userHandle: Array("00usealed000000000a2".utf8), aaguid: UUID(), pin: Secret("s3cret-pin"),
            rounds: 1 << 10, now: Self.created.addingTimeInterval(60)
        ).passkey
        return (sandbox, plain, sealed)
    }

    @Test func listAndShowPrintEveryPasskeyWithoutItsKey() async throws {
        let (sandbox, plain, sealed) = try await kept()
        defer { sandbox.stop() }
        let listed = try await sandbox.idflow(["passkey", "list"])
        #expect(listed.exitCode == 0, "\(listed)")
        let passkeys = try #require(try listed.json()["passkeys"]?.arrayValue)
        #expect(passkeys.map { $0["id"]?.stringValue } == [plain.id, sealed.id])
        let first = try #require(passkeys.first?.objectValue)
        #expect(
            Set(first.keys) == [
                "id", "rpId", "origin", "userHandle", "aaguid", "signCount", "sealed", "userVerification", "created", "createdAt",
            ])
        #expect(first["rpId"]?.stringValue == plain.rpId)
        #expect(first["origin"]?.stringValue == plain.origin)
        #expect(first["userHandle"]?.stringValue == plain.userHandle)
        #expect(first["aaguid"]?.stringValue == plain.aaguid)
        #expect(first["signCount"]?.intValue == 0)
        #expect(first["sealed"]?.boolValue == false)
        #expect(first["created"]?.stringValue == ISO8601.string(Self.created))
        // The names the contract promised first carry the same values.
        #expect(first["userVerification"]?.boolValue == false)
        #expect(first["createdAt"] == first["created"])
        #expect(passkeys.last?["sealed"]?.boolValue == true)
        #expect(passkeys.last?["userVerification"]?.boolValue == true)
        #expect(!listed.stdout.contains("privateKey") && !listed.stdout.contains("sealedKey") && !listed.stdout.contains("box"))

        let shown = try await sandbox.idflow(["passkey", "show", sealed.id])
        #expect(shown.exitCode == 0, "\(shown)")
        #expect(try shown.json()["id"]?.stringValue == sealed.id)
        #expect(try shown.json()["sealed"]?.boolValue == true)
        #expect(!shown.stdout.contains("sealedKey"))

        let unknown = try await sandbox.idflow(["passkey", "show", "AAAA"])
        #expect(unknown.exitCode == 5, "\(unknown)")
        #expect(unknown.error?["kind"]?.stringValue == "not_found")
    }

    @Test func deleteForgetsOnePasskeyAndAnUnknownIdExits5() async throws {
        let (sandbox, plain, sealed) = try await kept()
        defer { sandbox.stop() }
        let deleted = try await sandbox.idflow(["passkey", "delete", plain.id])
        #expect(deleted.exitCode == 0, "\(deleted)")
        #expect(try deleted.json()["deleted"]?.boolValue == true)
        let listed = try await sandbox.idflow(["passkey", "list"])
        #expect(try listed.json()["passkeys"]?.arrayValue?.map { $0["id"]?.stringValue } == [sealed.id])
        #expect(
            !FileManager.default.fileExists(
                atPath: sandbox.stateDirectory.appendingPathComponent("passkeys/\(plain.id).json").path))

        let again = try await sandbox.idflow(["passkey", "delete", plain.id])
        #expect(again.exitCode == 5, "\(again)")
        #expect(again.error?["message"]?.stringValue?.contains(plain.id) == true)
        let outside = try await sandbox.idflow(["passkey", "delete", "../profiles"])
        #expect(outside.exitCode == 5, "\(outside)")
    }

    @Test func anEmptyStoreListsNothing() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let listed = try await sandbox.idflow(["passkey", "list"])
        #expect(listed.exitCode == 0, "\(listed)")
        #expect(try listed.json()["passkeys"]?.arrayValue?.isEmpty == true)
    }
}
