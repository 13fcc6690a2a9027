import Foundation

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
    }

    /// Kept transactions under `{state-dir}/idx/`, one 0600 file each, written atomically; removed when the
    /// sign-in succeeds or ends in an error that cannot be answered (a refused password, an expired session).
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

        /// The kept transaction `id`, for this issuer and client: not found (exit 5) when none is kept.
        public func kept(_ id: String, issuer: URL, clientID: String) throws(IdFlowError) -> Transaction {
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
            return transaction
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
