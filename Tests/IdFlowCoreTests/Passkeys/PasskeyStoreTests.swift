import Crypto
import Foundation
import IdFlowFoundation
import Testing

@testable import IdFlowCore

/// What a user of `{state-dir}/passkeys/` notices: private files, a sign count that rises on every assertion and
/// survives the run, UV only from a PIN-sealed key, and no signature for a site the passkey was not made on.
struct PasskeyStoreTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-passkeys-\(UUID().uuidString)")
    var store: PasskeyStore { PasskeyStore(stateDirectory: stateDirectory) }
    static let party = try! RelyingParty(origin: URL(string: "https://auth.example.com")!)
    static let created = Date(timeIntervalSince1970: 1_790_000_000)

    func make(pin: Secret? = nil) throws -> StoredPasskey {
        try store.create(
            relyingParty: Self.party, userHandle: Array("00uflku0io38ODGrP0w6".utf8), aaguid: UUID(), pin: pin, rounds: 1 << 10,
            now: Self.created
        ).passkey
    }

    func clientData() throws -> ClientData {
        try ClientData(ceremony: .get, challenge: "X6GLEsXcstcsD2SrTGPSgeIrxINFGSxY", origin: Self.party.origin)
    }

    @Test func aPasskeyIsOnePrivateFileInAPrivateFolder() throws {
        let passkey = try make()
        let file = store.folder.appendingPathComponent("\(passkey.id).json")
        let fileMode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        let folderMode = try #require(
            try FileManager.default.attributesOfItem(atPath: store.folder.path)[.posixPermissions] as? Int)
        #expect(fileMode == 0o600 && folderMode == 0o700)
        #expect(try store.all() == [passkey])
        #expect(Base64URL.decode(passkey.id)?.count == 32)
        #expect(passkey.rpId == "auth.example.com" && passkey.origin == "https://auth.example.com")
        #expect(passkey.userHandle == "MDB1ZmxrdTBpbzM4T0RHclAwdzY")
        #expect(!passkey.sealed && passkey.signCount == 0)
        let summary = String(decoding: try JSONEncoder().encode(passkey.summary), as: UTF8.self)
        #expect(!summary.contains("privateKey") && !summary.contains("sealedKey"))
    }

    @Test func everyAssertionRaisesTheSignCountAndWritesItBack() async throws {
        let passkey = try make()
        let first = try await store.assert(passkey.id, relyingParty: Self.party, clientData: clientData(), pin: nil)
        let second = try await store.assert(passkey.id, relyingParty: Self.party, clientData: clientData(), pin: nil)
        #expect(Array(first.authenticatorData[33..<37]) == [0, 0, 0, 1])
        #expect(Array(second.authenticatorData[33..<37]) == [0, 0, 0, 2])
        #expect(try PasskeyStore(stateDirectory: stateDirectory).passkey(passkey.id).signCount == 2)
        // Unsealed: user present only.
        #expect(second.authenticatorData[32] == 0x01)
        #expect(second.userHandle == Array("00uflku0io38ODGrP0w6".utf8))
    }

    @Test func onlyASealedPasskeyOpenedWithItsPINSetsUV() async throws {
        let pin = Secret("correct horse")
        let passkey = try make(pin: pin)
        #expect(passkey.sealed)
        let text = String(decoding: try Data(contentsOf: store.folder.appendingPathComponent("\(passkey.id).json")), as: UTF8.self)
        #expect(!text.contains("\"privateKey\""))
        let assertion = try await store.assert(passkey.id, relyingParty: Self.party, clientData: clientData(), pin: pin)
        #expect(assertion.authenticatorData[32] == 0x05)
        await #expect {
            _ = try await store.assert(passkey.id, relyingParty: Self.party, clientData: clientData(), pin: Secret("wrong pin"))
        } throws: { ($0 as? IdFlowError)?.exitStatus == .authentication }
        await #expect {
            _ = try await store.assert(passkey.id, relyingParty: Self.party, clientData: clientData(), pin: nil)
        } throws: { ($0 as? IdFlowError)?.exitStatus == .usage }
        // A refused PIN signs nothing, so the count stays where the one good assertion left it.
        #expect(try store.passkey(passkey.id).signCount == 1)
    }

    @Test func aPasskeySignsForNoOtherSite() async throws {
        let passkey = try make()
        let other = try RelyingParty(origin: URL(string: "https://evil.example.net")!)
        await #expect {
            _ = try await store.assert(
                passkey.id, relyingParty: other,
                clientData: ClientData(ceremony: .get, challenge: "X6GLEsXc", origin: other.origin), pin: nil)
        } throws: { ($0 as? IdFlowError)?.exitStatus == .security }
        // Same RP ID, another port: another origin.
        let port = try RelyingParty(origin: URL(string: "https://auth.example.com:8443")!)
        await #expect {
            _ = try await store.assert(passkey.id, relyingParty: port, clientData: clientData(), pin: nil)
        } throws: { ($0 as? IdFlowError)?.exitStatus == .security }
        #expect(try store.passkey(passkey.id).signCount == 0)
    }

    @Test func deletingForgetsThePasskeyAndAnUnknownIdIsExit5() throws {
        let passkey = try make()
        try store.delete(passkey.id)
        #expect(try store.all().isEmpty)
        #expect { try store.delete(passkey.id) } throws: { ($0 as? IdFlowError)?.exitStatus == .notFound }
        #expect { _ = try store.passkey("../tokens") } throws: { ($0 as? IdFlowError)?.exitStatus == .notFound }
    }
}
