import Crypto
import Foundation
import IdFlowFoundation

/// The passkeys of this machine, one file each under `{state-dir}/passkeys/` (0600 files in a 0700 folder, each
/// written atomically with `SecureFile`); an assertion takes `passkeys/.lock` so that two runs never sign with the
/// same count.
public struct PasskeyStore: Sendable {
    public let folder: URL

    public init(stateDirectory: URL) {
        folder = stateDirectory.appendingPathComponent("passkeys", isDirectory: true)
    }

    /// scrypt's rounds for a PIN-sealed key: the push user-verification key's (tests choose fewer).
    public static let sealingRounds = SealedKey.defaultRounds

    static let listHint = "`idflow passkey list` shows the passkeys kept here"

    /// Every passkey, oldest first.
    public func all() throws(IdFlowError) -> [StoredPasskey] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var passkeys: [StoredPasskey] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let passkey = try Self.decode(folder.appendingPathComponent(name)) { passkeys.append(passkey) }
        }
        return passkeys.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    /// The passkey `id`, or exit 5 naming how to list them.
    public func passkey(_ id: String) throws(IdFlowError) -> StoredPasskey {
        guard StateFileName.isPlain(id, maxLength: Self.longestId), let passkey = try Self.decode(file(id)) else {
            throw .notFound("no passkey \(id) is kept on this machine", hint: Self.listHint)
        }
        return passkey
    }

    /// Forgets the passkey `id` here (the server keeps its enrolment); exit 5 when there is none.
    public func delete(_ id: String) throws(IdFlowError) {
        _ = try passkey(id)
        try SecureFile.remove(file(id))
    }

    /// Makes and keeps a new passkey for `relyingParty` and `userHandle`: a P-256 key, a random 32-byte credential
    /// id, sign count 0. With `pin` the key is sealed, and the passkey may later say the user was verified.
    public func create(
        relyingParty: RelyingParty, userHandle: [UInt8], aaguid: UUID, pin: Secret?,
        rounds: Int = PasskeyStore.sealingRounds, now: Date
    ) throws(IdFlowError) -> (passkey: StoredPasskey, key: P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        let credentialId = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let id = Base64URL.encode(credentialId)
        var passkey = StoredPasskey(
            id: id, rpId: relyingParty.id, origin: relyingParty.originText, userHandle: Base64URL.encode(userHandle),
            aaguid: aaguid.uuidString.lowercased(), signCount: 0, created: now)
        if let pin {
            passkey.sealedKey = try SealedKey.seal(key.rawRepresentation, pin: pin, kid: id, rounds: rounds)
        } else {
            passkey.privateKey = Base64URL.encode(key.rawRepresentation)
        }
        try save(passkey)
        return (passkey, key)
    }

    /// Signs `clientData` with the passkey `id` for `relyingParty`: refuses a passkey made for another RP ID or
    /// origin (exit 13), opens a sealed key with `pin` (then UV is set), and writes the increased sign count back
    /// before the signature leaves, under the store's lock.
    public func assert(
        _ id: String, relyingParty: RelyingParty, clientData: ClientData, pin: Secret?
    ) async throws(IdFlowError) -> Assertion {
        let lock = try await FileLock.acquire(folder.appendingPathComponent(".lock"))
        defer { lock.release() }
        var passkey = try passkey(id)
        guard passkey.rpId == relyingParty.id, passkey.origin == relyingParty.originText,
            clientData.origin == relyingParty.origin
        else {
            throw .security(
                "passkey \(id) was made for \(passkey.origin) (RP ID \(passkey.rpId)), not \(relyingParty.originText)",
                hint: "a passkey signs only for the site it was made on")
        }
        let (key, verified) = try privateKey(of: passkey, pin: pin)
        guard passkey.signCount < UInt32.max else {
            throw .localState("passkey \(id) has used every sign count", hint: "enroll a new passkey")
        }
        passkey.signCount += 1
        try save(passkey)
        let flags: AuthenticatorData.Flags = verified ? [.userPresent, .userVerified] : [.userPresent]
        let authenticatorData = AuthenticatorData(relyingParty: relyingParty, flags: flags, signCount: passkey.signCount)
        guard let userHandle = Base64URL.decode(passkey.userHandle) else {
            throw .localState("passkey \(id) has a damaged user handle", hint: "delete it with `idflow passkey delete \(id)`")
        }
        return try Assertion(
            authenticatorData: authenticatorData, clientData: clientData, userHandle: Array(userHandle), credentialKey: key)
    }

    /// The key, and whether a PIN just opened it (the only ground for UV).
    func privateKey(of passkey: StoredPasskey, pin: Secret?) throws(IdFlowError) -> (P256.Signing.PrivateKey, Bool) {
        let deleteHint = "delete it with `idflow passkey delete \(passkey.id)`"
        let damaged = IdFlowError.localState("the key of passkey \(passkey.id) is damaged", hint: deleteHint)
        if let sealed = passkey.sealedKey {
            guard let pin else {
                throw .invalidInput(
                    "passkey \(passkey.id) is sealed under a PIN", hint: "give the PIN it was sealed with")
            }
            switch sealed.open(pin: pin, kid: passkey.id) {
            case .success(let raw):
                guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { throw damaged }
                return (key, true)
            case .failure(.wrongPIN):
                throw .authentication("the PIN does not open passkey \(passkey.id)", hint: "check the PIN")
            case .failure(.corrupted(let reason)):
                throw .localState("passkey \(passkey.id) cannot be opened: \(reason)", hint: deleteHint)
            }
        }
        guard let text = passkey.privateKey, let raw = Base64URL.decode(text),
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else { throw damaged }
        return (key, false)
    }

    /// Writes `passkey` to its file, replacing the old one atomically.
    public func save(_ passkey: StoredPasskey) throws(IdFlowError) {
        guard StateFileName.isPlain(passkey.id, maxLength: Self.longestId) else {
            throw .internalFailure("the passkey id \(passkey.id.prefix(40)) cannot name a file")
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(passkey)
        } catch {
            throw .internalFailure("cannot encode passkey \(passkey.id): \(error)")
        }
        try SecureFile.write(data, to: file(passkey.id))
    }

    private func file(_ id: String) -> URL {
        folder.appendingPathComponent("\(id).json")
    }

    /// Credential ids become file names (`StateFileName`): base64url ones of at most this length.
    static let longestId = 172

    static func decode(_ file: URL) throws(IdFlowError) -> StoredPasskey? {
        guard let data = try SecureFile.read(file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(StoredPasskey.self, from: data)
        } catch {
            throw .localState("\(file.path) cannot be read: \(error)", hint: "move it aside")
        }
    }
}
