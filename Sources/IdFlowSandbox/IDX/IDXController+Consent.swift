import Foundation
import HTTPTypes
import Hummingbird

extension IDXController {
    /// `consent {"consent": true|false, "stateHandle"}` at the consent step → granted: the success document (the
    /// grant remembered for the user and app); refused: the terminal "Operation cancelled by user." document, the
    /// transaction ended; without a boolean `consent`, 400 and the consent form again.
    @Sendable func consent(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let stateHandle = body["stateHandle"]?.stringValue, let transaction = await state.idxTransaction(stateHandle: stateHandle)
        else { return IDXWire.expired() }
        guard case .consent = transaction.step else {
            return await consentDocument(transaction, error: Self.notOffered, status: .badRequest)
        }
        guard case .bool(let granted) = body["consent"] else {
            return await consentDocument(transaction, error: Self.consentMissing, status: .badRequest)
        }
        guard let next = await state.answerConsent(transaction, granted: granted) else {
            return IDXWire.response(IDXWire.consentRefusedDocument(transaction))
        }
        return await consentDocument(next, error: nil, status: .ok)
    }

    /// No recording shows a consent answer without its boolean; the message says what is missing.
    static let consentMissing = IDXMessage(text: "'consent' must be true or false.", key: nil)

    private func consentDocument(_ transaction: IDXTransaction, error: IDXMessage?, status: HTTPResponse.Status) async -> Response {
        let view = await state.idxView(transaction)
        return IDXWire.response(IDXWire.document(view, orgURL: await state.orgURL, error: error), status: status)
    }
}
