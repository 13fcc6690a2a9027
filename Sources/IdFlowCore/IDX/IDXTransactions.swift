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
    }

    /// The embedded sign-ins kept under `{state-dir}/idx/`: kept (or first written) after a wrong answer the server
    /// lets the person correct, as the server keeps the transaction until its limit of tries; removed when the
    /// sign-in succeeds or ends in an error that cannot be answered (a refused password, too many wrong codes, an
    /// expired session, Ctrl-C).
    public typealias Transactions = KeptTransactions<Transaction>
}

extension IDX.Transaction: KeptTransaction {}

extension KeptTransactions where Value == IDX.Transaction {
    public init(stateDirectory: URL) {
        self.init(stateDirectory: stateDirectory, folder: "idx", noun: "embedded sign-in")
    }
}
