import Foundation
import HTTPTypes
import Hummingbird

/// DPoP at `/v1/token` (okta-core.md §H3, §H4): the proof is checked, a nonce is required (the first proof
/// without one gets 400 `use_dpop_nonce` and a `dpop-nonce` header), a replayed `jti` is refused, and the answer
/// is the thumbprint the tokens are bound to. Every refusal is 400 `invalid_dpop_proof` with Okta's description.
enum TokenEndpointDPoP {
    static func refusal(_ rejected: VerifiedDPoPProof.Rejected) -> OAuthErrorResponse {
        OAuthErrorResponse(.badRequest, "invalid_dpop_proof", rejected.description)
    }

    static func nonceChallenge(_ nonce: String) -> OAuthErrorResponse {
        var error = OAuthErrorResponse(.badRequest, "use_dpop_nonce", "Authorization server requires nonce in DPoP proof.")
        error.headers[.dpopNonce] = nonce
        return error
    }

    /// The thumbprint of the request's proof, its `jti` recorded; throws the OAuth error that refuses it. For a
    /// caller whose grant is already checked (client credentials); a grant checked later uses `proof` and `consume`.
    static func thumbprint(of request: Request, state: SandboxState) async throws -> String {
        let proof = try await Self.proof(of: request, state: state)
        try await consume(proof, state: state)
        return proof.thumbprint
    }

    /// The request's proof, verified, with the current nonce and a `jti` not seen before, but not yet recorded:
    /// the `jti` is recorded (`consume`) only once the grant has succeeded, so requests that fail their grant
    /// store nothing. Throws the OAuth error that refuses it, a missing proof included.
    static func proof(of request: Request, state: SandboxState) async throws -> VerifiedDPoPProof {
        let header: String?
        do {
            header = try VerifiedDPoPProof.header(of: request.headers)
        } catch {
            throw refusal(error)
        }
        guard let header else { throw refusal(.missing) }
        let proof: VerifiedDPoPProof
        do {
            proof = try await VerifiedDPoPProof.verify(
                header, method: request.method.rawValue, urls: await state.endpointURLs(path: request.head.path ?? "/"),
                now: await state.now)
        } catch {
            throw refusal(error)
        }
        if let nonce = await state.missingDPoPNonce(proof) { throw nonceChallenge(nonce) }
        guard !(await state.hasSeenDPoPProofID(proof)) else { throw refusal(.replayed) }
        return proof
    }

    /// Records the proof's `jti`; refuses it when another request recorded it since `proof` checked it.
    static func consume(_ proof: VerifiedDPoPProof, state: SandboxState) async throws {
        guard await state.consumeDPoPProofID(proof) else { throw refusal(.replayed) }
    }
}
