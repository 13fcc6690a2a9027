import Foundation
import IdFlowFoundation

/// How an access token goes to a resource: RFC 6750's `Authorization: Bearer`, or for a DPoP-bound token (RFC 9449,
/// `token_type` `DPoP`) `Authorization: DPoP` with a proof per request signed by the key the token is bound to,
/// over the method, the URL and the token's hash (`ath`). A bound token without its key cannot be used, so it is
/// refused before anything is sent rather than sent as Bearer, which the resource must reject.
public enum AccessTokenPresentation: Sendable, Equatable {
    case bearer(String)
    case dpop(token: String, key: DPoPKey)

    /// How the stored login's access token is presented: as its `token_type` says, with the key kept beside it.
    init(_ stored: StoredTokens) throws(IdFlowError) {
        try self.init(stored.tokens, dpopKey: stored.dpopKey)
    }

    /// `tokens` presented as their `token_type` says, a DPoP-bound token with `dpopKey` (`DPoPKey.stored`).
    init(_ tokens: TokenResponse, dpopKey: String?) throws(IdFlowError) {
        switch tokens.tokenType.lowercased() {
        case "bearer":
            self = .bearer(tokens.accessToken)
        case "dpop":
            guard let key = dpopKey.flatMap(DPoPKey.init(stored:)) else {
                throw .localState(
                    "the stored access token is DPoP-bound, but the key it is bound to is not stored with it",
                    hint: "log in again with --dpop")
            }
            self = .dpop(token: tokens.accessToken, key: key)
        default:
            throw .invalidInput(
                "the stored access token has the token type \(tokens.tokenType), which idflow does not know how to present",
                hint: "log in again; idflow sends Bearer and DPoP tokens")
        }
    }

    /// The token itself, to tell whether a refused token is still the stored one.
    var token: String {
        switch self {
        case .bearer(let token), .dpop(let token, _): return token
        }
    }

    /// `request` carrying the token; a DPoP proof is signed by `HTTPClient` for each attempt.
    func present(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        switch self {
        case .bearer(let token):
            request.headers["Authorization"] = "Bearer \(token)"
        case .dpop(let token, let key):
            request.headers["Authorization"] = "DPoP \(token)"
            request.signing = RequestSigning(dpopKey: key, accessToken: token)
        }
        return request
    }
}
