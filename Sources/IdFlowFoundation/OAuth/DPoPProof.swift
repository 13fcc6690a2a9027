import Crypto
import Foundation

/// A DPoP proof (RFC 9449 §4): a JWT signed by the token's key over one request, so a stolen token is useless
/// without the key. Each request gets its own, with a fresh `jti`, because servers refuse a proof seen before.
enum DPoPProof {
    /// The proof for `method` on `url`; `accessToken` (a resource request) adds its hash as `ath`, `nonce` the
    /// server's latest one.
    static func make(key: DPoPKey, method: String, url: URL, accessToken: String?, nonce: String?, now: Date) throws(IdFlowError)
        -> String
    {
        var claims: [String: JSONValue] = [
            "htm": .string(method.uppercased()), "htu": .string(targetURI(url)), "iat": .number(Double(Int(now.timeIntervalSince1970))),
            "jti": .string(UUID().uuidString.lowercased()),
        ]
        if let accessToken { claims["ath"] = .string(tokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        return try CompactJWS.sign(header: ["typ": "dpop+jwt", "alg": "ES256", "jwk": key.publicJWK], claims: .object(claims)) {
            (input: Data) throws(IdFlowError) in try key.sign(input)
        }
    }

    /// `htu`: the request's URI as libcurl sends it, normalised, without user info, query and fragment (RFC 9449
    /// §4.2): a server compares it with the URI it received, and a proof must never name another one.
    static func targetURI(_ url: URL) -> String {
        NormalizedURI.of(url)
    }

    /// `ath`: base64url(SHA-256(the access token's ASCII)).
    static func tokenHash(_ accessToken: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
    }
}
