import Foundation

/// How an access token goes to a resource. Today that is RFC 6750's `Authorization: Bearer` header.
///
/// This is the seam for DPoP (RFC 9449, idflow's OAuth/DPoP issue): a DPoP-bound token (`token_type` `DPoP`) must
/// go as `Authorization: DPoP <token>` with a fresh proof JWT per request in a `DPoP` header, signed by the key
/// the token was bound to, over the method and URL (`htm`, `htu`) and the token's hash (`ath`). idflow keeps no
/// such key yet, so a bound token is refused here, before anything is sent, rather than sent as Bearer (which
/// a resource must reject) or with a proof that cannot be right.
enum AccessTokenPresentation: Sendable, Equatable {
    case bearer(String)

    init(_ tokens: TokenResponse) throws(IdFlowError) {
        switch tokens.tokenType.lowercased() {
        case "bearer":
            self = .bearer(tokens.accessToken)
        case "dpop":
            throw .invalidInput(
                "the stored access token is DPoP-bound (token_type DPoP), and idflow cannot sign DPoP proofs yet",
                hint: "log in without DPoP for this profile, or call the API with a DPoP-capable client")
        default:
            throw .invalidInput(
                "the stored access token has the token type \(tokens.tokenType), which idflow does not know how to present",
                hint: "log in again; idflow sends Bearer tokens")
        }
    }

    /// The token itself, to tell whether a refused token is still the stored one.
    var token: String {
        switch self {
        case .bearer(let token): return token
        }
    }

    /// The headers that carry the token on a request of `method` to `url` (a DPoP proof would be made here).
    func headers(method: String, url: URL) -> [String: String] {
        switch self {
        case .bearer(let token): return ["Authorization": "Bearer \(token)"]
        }
    }
}
