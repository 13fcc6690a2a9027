import Foundation

/// A sign-in a script stopped for an answer it did not have (exit 3), kept so a later run's `--resume` continues
/// it: the server's handles for it, and when the server forgets it.
public protocol KeptTransaction: Codable, Sendable {
    /// What `--resume` is given: letters, digits, `-` and `_` only, as it names the file.
    var id: String { get }
    var issuer: String { get }
    var clientID: String { get }
    /// When the server forgets the transaction (ISO 8601); nil when it did not say.
    var expiresAt: String? { get }
}

extension KeptTransaction {
    public func hasExpired(at now: Date) -> Bool {
        guard let expiry = expiresAt.flatMap(ISO8601.date) else { return false }
        return expiry <= now
    }
}

/// One family's kept transactions under `{state-dir}/{folder}/`, one 0600 file each, written atomically. A file
/// lives only while the server can still continue the transaction: each family removes it when the sign-in
/// succeeds or ends in an error that cannot be answered, and a file past its `expiresAt` is removed rather than
/// resumed. The embedded sign-in (`idx/`) and Direct Authentication's texted or spoken codes (`direct-auth/`) keep
/// theirs here, so both resume, expire and complete alike.
public struct KeptTransactions<Value: KeptTransaction>: Sendable {
    public let directory: URL
    /// What a person calls one, in messages: "embedded sign-in".
    let noun: String

    public init(stateDirectory: URL, folder: String, noun: String) {
        directory = stateDirectory.appendingPathComponent(folder, isDirectory: true)
        self.noun = noun
    }

    func file(_ id: String) throws(IdFlowError) -> URL {
        guard StateFileName.isPlain(id) else {
            throw .invalidInput("\"\(id)\" is not a transaction id", hint: "pass the \"transaction\" that the stopped run printed")
        }
        return directory.appendingPathComponent("\(id).json")
    }

    /// The kept transaction `id`, for this issuer and client: not found (exit 5) when none is kept, an
    /// authentication failure (exit 4) when it has expired (the file is removed).
    public func kept(_ id: String, issuer: URL, clientID: String, now: Date) throws(IdFlowError) -> Value {
        let url = try file(id)
        guard let data = try SecureFile.read(url) else {
            throw .notFound(
                "no \(noun) \(id) is kept in \(directory.path)", hint: "it finished, failed or was never stopped; start the sign-in again")
        }
        let transaction: Value
        do { transaction = try JSONDecoder().decode(Value.self, from: data) } catch {
            throw .localState("the \(noun) kept in \(url.path) cannot be read", hint: "remove it and start again")
        }
        guard transaction.issuer == issuer.absoluteString, transaction.clientID == clientID else {
            throw .invalidInput(
                "transaction \(id) was started by client \(transaction.clientID) at \(transaction.issuer)",
                hint: "resume it with the same --issuer and --client-id")
        }
        guard !transaction.hasExpired(at: now) else {
            try remove(id)
            throw .authentication("the \(noun) \(id) expired at \(transaction.expiresAt ?? "its expiry")", hint: "start the sign-in again")
        }
        return transaction
    }

    /// Removes every kept transaction the server has forgotten by now (and any file that cannot be read
    /// as one); best effort, so a stray file never stops a sign-in.
    public func removeExpired(now: Date) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            guard let data = try? SecureFile.read(url) else { continue }
            let transaction = try? JSONDecoder().decode(Value.self, from: data)
            if transaction?.hasExpired(at: now) ?? true { try? SecureFile.remove(url) }
        }
    }

    /// The ids of the kept transactions that have not expired, sorted: what `--resume` may be given. Read
    /// only (nothing is removed) and silent about a file that cannot be read, because shell completion
    /// calls it at every TAB.
    public func pendingIDs(now: Date) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().compactMap { name in
            guard let data = try? SecureFile.read(directory.appendingPathComponent(name)),
                let transaction = try? JSONDecoder().decode(Value.self, from: data), !transaction.hasExpired(at: now)
            else { return nil }
            return transaction.id
        }
    }

    public func save(_ transaction: Value) throws(IdFlowError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(transaction) } catch {
            throw .internalFailure("cannot encode the \(noun): \(error)")
        }
        try SecureFile.write(data, to: try file(transaction.id))
    }

    public func remove(_ id: String) throws(IdFlowError) {
        try SecureFile.remove(try file(id))
    }
}
