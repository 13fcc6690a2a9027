import Foundation
import IdFlowFoundation

extension IDX {
    /// An embedded sign-in a script stopped for a missing answer (exit 3), kept so `--resume` continues it:
    /// the handles the server knows it by, and the PKCE verifier, state and nonce the token exchange and
    /// the ID token check need.
    public struct Transaction: Codable, Sendable, Equatable {
        public var id: String
        public var issuer: String
        public var clientID: String
        public var interactionHandle: String
        public var stateHandle: String?
        public var codeVerifier: String
        public var state: String
        public var nonce: String
        public var scope: String
        /// When the server forgets the transaction (the last document's `expiresAt`); a kept file past it is
        /// removed rather than resumed.
        public var expiresAt: String?

        public init(
            id: String, issuer: String, clientID: String, interactionHandle: String, stateHandle: String?, codeVerifier: String,
            state: String, nonce: String, scope: String
        ) {
            self.id = id
            self.issuer = issuer
            self.clientID = clientID
            self.interactionHandle = interactionHandle
            self.stateHandle = stateHandle
            self.codeVerifier = codeVerifier
            self.state = state
            self.nonce = nonce
            self.scope = scope
        }

        /// Follows the server's latest document: the state handle the next form carries, and the expiry.
        mutating func follow(_ document: Document) {
            stateHandle = document.stateHandle ?? stateHandle
            expiresAt = document.expiresAt ?? expiresAt
        }

        func hasExpired(at now: Date) -> Bool {
            guard let expiry = expiresAt.flatMap(ISO8601.date) else { return false }
            return expiry <= now
        }
    }

    /// Kept transactions under `{state-dir}/idx/`, one 0600 file each, written atomically; kept (or first written)
    /// after a wrong answer the server lets the person correct, as the server keeps the transaction until its limit
    /// of tries; removed when the sign-in succeeds or ends in an error that cannot be answered (a refused password,
    /// too many wrong codes, an expired session, Ctrl-C), and once the server's `expiresAt` has passed.
    public struct Transactions: Sendable {
        public let directory: URL

        public init(stateDirectory: URL) {
            directory = stateDirectory.appendingPathComponent("idx", isDirectory: true)
        }

        func file(_ id: String) throws(IdFlowError) -> URL {
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            guard !id.isEmpty, id.unicodeScalars.allSatisfy(allowed.contains) else {
                throw .invalidInput("\"\(id)\" is not a transaction id", hint: "pass the \"transaction\" that the stopped run printed")
            }
            return directory.appendingPathComponent("\(id).json")
        }

        /// The kept transaction `id`, for this issuer and client: not found (exit 5) when none is kept, an
        /// authentication failure (exit 4) when it has expired (the file is removed).
        public func kept(_ id: String, issuer: URL, clientID: String, now: Date) throws(IdFlowError) -> Transaction {
            let url = try file(id)
            guard let data = try SecureFile.read(url) else {
                throw .notFound(
                    "no embedded sign-in \(id) is kept in \(directory.path)",
                    hint: "it finished, failed or was never stopped; start the sign-in again")
            }
            let transaction: Transaction
            do { transaction = try JSONDecoder().decode(Transaction.self, from: data) } catch {
                throw .localState("the embedded sign-in kept in \(url.path) cannot be read", hint: "remove it and start again")
            }
            guard transaction.issuer == issuer.absoluteString, transaction.clientID == clientID else {
                throw .invalidInput(
                    "transaction \(id) was started by client \(transaction.clientID) at \(transaction.issuer)",
                    hint: "resume it with the same --issuer and --client-id")
            }
            guard !transaction.hasExpired(at: now) else {
                try remove(id)
                throw .authentication(
                    "the embedded sign-in \(id) expired at \(transaction.expiresAt ?? "its expiry")", hint: "start the sign-in again")
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
                let transaction = try? JSONDecoder().decode(Transaction.self, from: data)
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
                    let transaction = try? JSONDecoder().decode(Transaction.self, from: data), !transaction.hasExpired(at: now)
                else { return nil }
                return transaction.id
            }
        }

        public func save(_ transaction: Transaction) throws(IdFlowError) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data: Data
            do { data = try encoder.encode(transaction) } catch {
                throw .internalFailure("cannot encode the embedded sign-in: \(error)")
            }
            try SecureFile.write(data, to: try file(transaction.id))
        }

        public func remove(_ id: String) throws(IdFlowError) {
            try SecureFile.remove(try file(id))
        }
    }
}
