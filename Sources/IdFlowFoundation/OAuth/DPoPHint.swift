import Foundation

/// What to do about a refused DPoP proof (okta-core.md §H3): the one refusal a user can fix with a flag is an app
/// that requires proofs when none was sent; the others come from a proof idflow signed itself, so the clock or a
/// key that no longer matches the stored token is the likely cause.
package enum DPoPHint {
    static func tokenEndpoint(sentProof: Bool) -> String {
        guard sentProof else {
            return "this app requires DPoP-bound tokens: add --dpop (env OKTA_CLIENT_DPOPENABLED=true, profile key dpop: true)"
        }
        return proofRefused
    }

    package static let proofRefused =
        "idflow signs a fresh proof per request, so check this machine's clock against the server's (`idflow doctor`); a proof more than five minutes off is refused"
}
