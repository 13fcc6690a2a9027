import Foundation
import IdFlowFoundation

extension DirectAuthGrant: Codable {}
extension OOBChannel: Codable {}

extension LoginDirect {
    /// An SMS or voice sign-in a script stopped because no code was given (exit 3): what redeeming the code
    /// later needs, so `login-direct --resume ID --binding-code-stdin` finishes the same sign-in instead of sending
    /// a new code. Holds the `oob_code` and `mfa_token`, which are secrets: the file is 0600 like every kept state.
    public struct PendingCode: KeptTransaction, Equatable {
        public var id: String
        public var issuer: String
        public var clientID: String
        public var username: String
        public var channel: OOBChannel
        /// `oob`, or `mfa-oob` when the code is a second factor.
        public var grant: DirectAuthGrant
        public var oobCode: String
        public var mfaToken: String?
        /// When the `oob_code` expires (its `expires_in` from when it was sent).
        public var expiresAt: String?

        /// The kept codes, under `{state-dir}/direct-auth/`.
        public static func kept(stateDirectory: URL) -> KeptTransactions<PendingCode> {
            KeptTransactions(stateDirectory: stateDirectory, folder: "direct-auth", noun: "Direct Authentication sign-in")
        }
    }

    /// What a script gets on stdout when an SMS or voice code is needed and none was given (exit 3):
    /// `{"transaction", "channel", "expires_at"}`. The hint says how to resume with the code.
    public struct CodeNeeded: FlowStop, Equatable, Encodable {
        public var transaction: String
        public var channel: OOBChannel
        public var expiresAt: String?

        enum CodingKeys: String, CodingKey {
            case transaction, channel
            case expiresAt = "expires_at"
        }

        public var kind: String { "answer_required" }
        public var exitStatus: IdFlowExitCode { .rejected }
        public var message: String {
            "the code sent by \(channel == .sms ? "SMS" : "voice call") is needed to finish the sign-in, and no --binding-code-stdin gave it"
        }
        public var hint: String? {
            "when it arrives, pipe it into `idflow login-direct --resume \(transaction) --binding-code-stdin`"
                + (expiresAt.map { " before \($0)" } ?? "")
        }
        public var standardOutputDocument: (any Encodable & Sendable)? { self }
    }
}
