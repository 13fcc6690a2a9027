import Crypto
import Foundation
import IdFlowFoundation

/// Activation transactions left open after a password the policy refused: the activation token is
/// single-use on the server, so a script that retries `set-password` with the same token and a better
/// password continues the transaction it opened (its state token, good for a few minutes) instead of
/// finding the token spent. Kept under `{state-dir}/activations/`, one 0600 file per token, named by a
/// hash of the token so the token itself is never on disk.
public struct PendingActivations: Sendable {
    public let directory: URL

    public init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("activations", isDirectory: true)
    }

    private struct Record: Codable {
        var orgURL: String
        var transaction: AuthnTransaction
    }

    func file(for token: ActivationToken) -> URL {
        let digest = SHA256.hash(data: Data(token.secret.value.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent("\(digest).json")
    }

    /// The open transaction of `token` on `org`, nil when there is none or it has expired (then it is removed).
    public func load(for token: ActivationToken, org: URL, now: Date) throws(IdFlowError) -> AuthnTransaction? {
        let url = file(for: token)
        guard let data = try SecureFile.read(url) else { return nil }
        guard let record = try? JSONDecoder().decode(Record.self, from: data), record.orgURL == org.absoluteString,
            let expiry = record.transaction.expiresAt.flatMap(ISO8601.date), expiry > now
        else {
            try SecureFile.remove(url)
            return nil
        }
        return record.transaction
    }

    public func save(_ transaction: AuthnTransaction, for token: ActivationToken, org: URL) throws(IdFlowError) {
        do {
            try SecureFile.write(JSONEncoder().encode(Record(orgURL: org.absoluteString, transaction: transaction)), to: file(for: token))
        } catch let error as IdFlowError {
            throw error
        } catch {
            throw .internalFailure("cannot encode the open activation: \(error)")
        }
    }

    public func remove(for token: ActivationToken) throws(IdFlowError) {
        try SecureFile.remove(file(for: token))
    }
}
