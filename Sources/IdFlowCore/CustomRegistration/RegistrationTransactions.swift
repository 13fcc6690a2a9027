import Crypto
import Foundation
import IdFlowFoundation

/// One registration a script may continue with `--transaction-id`: where it runs (token server, client,
/// identity provider), the step it is at, and the profile id its complete calls must repeat.
public struct RegistrationTransaction: Codable, Sendable, Equatable {
    public var tokenServer: String
    public var clientId: String
    public var identityProvider: String
    public var step: RegistrationStep
    public var profileId: String
    public var savedAt: Date

    public init(tokenServer: String, clientId: String, identityProvider: String, step: RegistrationStep, profileId: String, savedAt: Date) {
        self.tokenServer = tokenServer
        self.clientId = clientId
        self.identityProvider = identityProvider
        self.step = step
        self.profileId = profileId
        self.savedAt = savedAt
    }
}

/// Open registrations under `{state-dir}/custom-registrations/`, one 0600 file per transaction, written
/// atomically and named by a hash of the transaction id. A file exists only while the server's transaction can
/// still be continued: it is removed on success, on a failure status, on `--cancel`, on Ctrl-C at a prompt, and
/// when the server says the transaction is unknown.
public struct RegistrationTransactions: Sendable {
    public let directory: URL

    public init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("custom-registrations", isDirectory: true)
    }

    func file(for transactionID: String) -> URL {
        let digest = SHA256.hash(data: Data(transactionID.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent("\(digest).json")
    }

    public func load(_ transactionID: String) throws(IdFlowError) -> RegistrationTransaction? {
        guard let data = try SecureFile.read(file(for: transactionID)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(RegistrationTransaction.self, from: data)
        } catch {
            throw .localState(
                "the registration transaction kept in \(file(for: transactionID).path) cannot be read",
                hint: "remove it with `idflow register --idp … --transaction-id … --cancel` and start again")
        }
    }

    /// The kept transaction `transactionID` of `identityProvider`: not found (exit 5) when none is kept, a usage
    /// error when it belongs to another identity provider.
    public func kept(_ transactionID: String, of identityProvider: String, hint: String) throws(IdFlowError) -> RegistrationTransaction {
        guard let kept = try load(transactionID) else {
            throw .notFound("no registration transaction \(transactionID) is kept in \(directory.path)", hint: hint)
        }
        guard kept.identityProvider == identityProvider else {
            throw .invalidInput(
                "transaction \(transactionID) belongs to --idp \(kept.identityProvider), not \(identityProvider)",
                hint: "pass --idp \(kept.identityProvider)")
        }
        return kept
    }

    public func save(_ transaction: RegistrationTransaction, as transactionID: String) throws(IdFlowError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(transaction)
        } catch {
            throw .internalFailure("cannot encode the registration transaction: \(error)")
        }
        try SecureFile.write(data, to: file(for: transactionID))
    }

    public func remove(_ transactionID: String) throws(IdFlowError) {
        try SecureFile.remove(file(for: transactionID))
    }
}
