import Crypto
import Foundation
import IdFlowFoundation

/// This machine's device identity on one org (devices.md §2a, §2b): shared by every enrollment there, so
/// a second enrollment presents the same device instead of a new one.
public struct DeviceIdentity: Codable, Sendable, Equatable {
    public var orgUrl: String
    public var orgId: String
    /// `device.authenticatorAppKey`: this installation's id, a UUID made once.
    public var installationId: String
    public var clientInstanceKeyId: String
    /// Known after the first enrollment: the server's device id (guo…) and client instance id (cli…).
    public var deviceId: String?
    public var clientInstanceId: String?
}

/// One push enrollment as this machine keeps it: what §2c says to store, plus the keys' kids and the
/// client the maintenance token is asked for.
public struct EnrollmentRecord: Codable, Sendable, Equatable {
    public var enrollmentId: String
    public var authenticatorId: String
    public var orgUrl: String
    public var orgId: String
    public var oauthClientId: String
    public var userId: String
    public var username: String?
    /// The name the device was enrolled under (`--name`, else the host name).
    public var displayName: String?
    public var deviceId: String
    public var clientInstanceId: String
    public var methodEnrollmentId: String
    public var pendingUrl: String
    public var selfUrl: String?
    public var pushToken: String
    public var proofOfPossessionKeyId: String
    public var userVerificationKeyId: String?
    public var createdAt: Date
}

/// One key file: the private key in clear for silent keys (the file is 0600 in a 0700 folder, like the
/// tokens), or sealed under the PIN for the user-verification key.
struct StoredKey: Codable, Sendable {
    var kid: String
    var role: DeviceKeyRole
    var createdAt: Date
    /// Raw P-256 scalar, base64url; only for silent keys.
    var privateKey: String?
    /// Only for the user-verification key.
    var sealed: SealedKey?
}

/// The device keys and enrollments of every org, under `{state-dir}/devices/<org-key>/`:
/// `device.json`, `keys/<KID>.json`, `enrollments/<enrollmentId>.json`, every file 0600 and written
/// atomically (`SecureFile`), every folder 0700 (`StateDirectory`).
public struct DeviceStore: Sendable {
    public let root: URL

    public init(stateDirectory: URL) {
        root = stateDirectory.appendingPathComponent("devices", isDirectory: true)
    }

    /// The folder of one org, named after its host (and port, when not the default), e.g. `dev-123.okta.com`
    /// or `127.0.0.1_8080`.
    public func org(_ orgURL: URL) throws(IdFlowError) -> OrgDeviceFolder {
        guard let origin = Origin(orgURL) else {
            throw .invalidInput("the org URL \(orgURL.absoluteString) has no host")
        }
        let host = origin.host
        let name = origin.nonDefaultPort.map { "\(host)_\($0)" } ?? host
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }), !name.hasPrefix(".") else {
            throw .invalidInput("the org URL host \(host) cannot name a folder")
        }
        let folder = root.appendingPathComponent(name, isDirectory: true)
        // Before `Origin`, an org given with its default port written out (`https://x.okta.com:443`) got a folder
        // `x.okta.com_443`; such a folder is still found, so no enrollment made that way is lost.
        if let port = origin.port, name == host, !FileManager.default.fileExists(atPath: folder.path) {
            let written = root.appendingPathComponent("\(host)_\(port)", isDirectory: true)
            if FileManager.default.fileExists(atPath: written.path) { return OrgDeviceFolder(url: written) }
        }
        return OrgDeviceFolder(url: folder)
    }

    /// Every org folder that exists, sorted by name.
    public func allOrgs() -> [OrgDeviceFolder] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { OrgDeviceFolder(url: root.appendingPathComponent($0, isDirectory: true)) }
    }

    /// The enrollments of the configured org, or of every org when none is configured.
    public func enrollments(orgURL: URL?) throws(IdFlowError) -> [EnrollmentRecord] {
        let folders = try orgURL.map { url throws(IdFlowError) in [try org(url)] } ?? allOrgs()
        var records: [EnrollmentRecord] = []
        for folder in folders { records += try folder.enrollments() }
        return records.sorted { ($0.createdAt, $0.enrollmentId) < ($1.createdAt, $1.enrollmentId) }
    }

    /// The enrollment `id` and its folder, or exit 5 naming how to list them.
    public func enrollment(_ id: String, orgURL: URL?) throws(IdFlowError) -> (EnrollmentRecord, OrgDeviceFolder) {
        let folders = try orgURL.map { url throws(IdFlowError) in [try org(url)] } ?? allOrgs()
        for folder in folders {
            if let record = try folder.enrollment(id) { return (record, folder) }
        }
        throw .notFound("no enrollment \(id) is kept on this machine", hint: "`idflow enroll list` shows the enrollments kept here")
    }
}

/// The files of one org.
public struct OrgDeviceFolder: Sendable {
    public let url: URL

    var identityFile: URL { url.appendingPathComponent("device.json") }
    var keysFolder: URL { url.appendingPathComponent("keys", isDirectory: true) }
    var enrollmentsFolder: URL { url.appendingPathComponent("enrollments", isDirectory: true) }

    // MARK: Identity

    public func identity() throws(IdFlowError) -> DeviceIdentity? {
        try Self.decode(DeviceIdentity.self, from: identityFile)
    }

    public func save(_ identity: DeviceIdentity) throws(IdFlowError) {
        try Self.write(identity, to: identityFile)
    }

    public func removeIdentity() throws(IdFlowError) {
        try SecureFile.remove(identityFile)
    }

    // MARK: Keys

    func keyFile(_ kid: String) throws(IdFlowError) -> URL {
        try keysFolder.appendingPathComponent("\(Self.safeName(kid, what: "key id")).json")
    }

    /// Stores `key`; sealed under `pin` when given (the user-verification key), in clear otherwise.
    func save(_ key: DeviceKey, pin: Secret?, rounds: Int = SealedKey.defaultRounds, now: Date) throws(IdFlowError) {
        let raw = key.privateKey.rawRepresentation
        var stored = StoredKey(kid: key.kid, role: key.role, createdAt: now)
        if let pin {
            stored.sealed = try SealedKey.seal(raw, pin: pin, kid: key.kid, rounds: rounds)
        } else {
            stored.privateKey = Base64URL.encode(raw)
        }
        try Self.write(stored, to: try keyFile(key.kid))
    }

    /// A silent key (client instance, proof of possession); a missing or damaged one is a local-state error.
    func silentKey(_ kid: String, role: DeviceKeyRole) throws(IdFlowError) -> DeviceKey {
        let file = try keyFile(kid)
        guard let stored = try Self.decode(StoredKey.self, from: file) else {
            throw .localState("the \(role.rawValue) key \(kid) is missing from \(keysFolder.path)", hint: Self.reenrollHint)
        }
        guard stored.kid == kid, stored.role == role, let encoded = stored.privateKey, let raw = Base64URL.decode(encoded),
            let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw .localState("the \(role.rawValue) key file \(file.path) is damaged", hint: Self.reenrollHint)
        }
        return DeviceKey(kid: kid, role: role, privateKey: privateKey)
    }

    /// What unlocking the user-verification key gave.
    enum Unlock {
        case unlocked(DeviceKey)
        /// The PIN did not open it.
        case wrongPIN
        /// The file is gone or unusable: no PIN will ever open it.
        case unavailable(String)
    }

    func userVerificationKey(_ kid: String, pin: Secret) -> Unlock {
        guard let file = try? keyFile(kid) else { return .unavailable("bad key id") }
        let stored: StoredKey?
        do {
            stored = try Self.decode(StoredKey.self, from: file)
        } catch {
            return .unavailable(error.message)
        }
        guard let stored, stored.kid == kid, stored.role == .userVerification, let sealed = stored.sealed else {
            return .unavailable("the user-verification key \(kid) is missing or damaged")
        }
        switch sealed.open(pin: pin, kid: kid) {
        case .failure(.wrongPIN): return .wrongPIN
        case .failure(.corrupted(let reason)): return .unavailable(reason)
        case .success(let raw):
            guard let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
                return .unavailable("the user-verification key \(kid) is damaged")
            }
            return .unlocked(DeviceKey(kid: kid, role: .userVerification, privateKey: privateKey))
        }
    }

    func removeKey(_ kid: String) throws(IdFlowError) {
        try SecureFile.remove(try keyFile(kid))
    }

    // MARK: Enrollments

    public func enrollments() throws(IdFlowError) -> [EnrollmentRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: enrollmentsFolder.path)) ?? []
        var records: [EnrollmentRecord] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let record = try Self.decode(EnrollmentRecord.self, from: enrollmentsFolder.appendingPathComponent(name)) {
                records.append(record)
            }
        }
        return records
    }

    public func enrollment(_ id: String) throws(IdFlowError) -> EnrollmentRecord? {
        try Self.decode(
            EnrollmentRecord.self, from: enrollmentsFolder.appendingPathComponent("\(try Self.safeName(id, what: "enrollment id")).json"))
    }

    public func save(_ record: EnrollmentRecord) throws(IdFlowError) {
        try Self.write(
            record, to: enrollmentsFolder.appendingPathComponent("\(try Self.safeName(record.enrollmentId, what: "enrollment id")).json"))
    }

    /// Forgets the enrollment and its own keys; the device identity stays for the next enrollment.
    public func remove(_ record: EnrollmentRecord) throws(IdFlowError) {
        try SecureFile.remove(
            enrollmentsFolder.appendingPathComponent("\(try Self.safeName(record.enrollmentId, what: "enrollment id")).json"))
        try removeKey(record.proofOfPossessionKeyId)
        if let uv = record.userVerificationKeyId { try removeKey(uv) }
    }

    // MARK: Files

    static let reenrollHint = "delete the enrollment here with `idflow enroll delete ID --local-only` and enroll again"

    /// Ids from the server become file names, so only plain ones are taken: an id with `/` or `..` could
    /// otherwise write outside the folder.
    static func safeName(_ id: String, what: String) throws(IdFlowError) -> String {
        guard StateFileName.isPlain(id, maxLength: 128) else {
            throw .protocolViolation("the \(what) \(id.prefix(40)) is not a plain identifier")
        }
        return id
    }

    static func decode<T: Decodable>(_ type: T.Type, from file: URL) throws(IdFlowError) -> T? {
        guard let data = try SecureFile.read(file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw .localState("\(file.path) cannot be read: \(error)", hint: "move it aside; \(reenrollHint)")
        }
    }

    static func write(_ value: some Encodable, to file: URL) throws(IdFlowError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw .internalFailure("cannot encode \(file.lastPathComponent): \(error)")
        }
        try SecureFile.write(data, to: file)
    }
}
