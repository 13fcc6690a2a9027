import Foundation
import Hummingbird

/// The DPoP proof that must come with a DPoP-bound access token at a resource (RFC 9449 §7): one `DPoP` header,
/// a valid proof for this request whose `ath` is the token's hash and whose key is the one in `cnf.jkt`, not seen
/// before, and, where the resource requires it, carrying the current server nonce.
enum BoundTokenProof {
    /// Why the request is refused; each resource words its answer.
    enum Refusal: Error {
        /// No `DPoP` header.
        case missing
        case rejected(VerifiedDPoPProof.Rejected)
        /// The proof lacks the current nonce, which is this value.
        case nonce(String)
    }

    static func check(
        _ request: Request, accessToken: String, boundTo thumbprint: String, state: SandboxState, requireNonce: Bool = false
    ) async throws(Refusal) {
        let header: String?
        do {
            header = try VerifiedDPoPProof.header(of: request.headers)
        } catch {
            throw .rejected(error)
        }
        guard let header else { throw .missing }
        let proof: VerifiedDPoPProof
        do {
            proof = try await VerifiedDPoPProof.verify(
                header, method: request.method.rawValue, urls: await state.endpointURLs(path: request.head.path ?? "/"),
                now: await state.now, accessToken: accessToken)
        } catch {
            throw .rejected(error)
        }
        guard proof.thumbprint == thumbprint else { throw .rejected(.notBound) }
        if requireNonce, let nonce = await state.missingDPoPNonce(proof) { throw .nonce(nonce) }
        guard await state.consumeDPoPProofID(proof) else { throw .rejected(.replayed) }
    }
}
