import Crypto
import Foundation
import HTTPTypes
import URINormalization

/// A DPoP proof (RFC 9449 §4) that passed every stateless check: `typ`, an asymmetric `alg` that fits a public
/// `jwk`, the signature, `htm`, `htu`, the `iat` window and, on a resource call, `ath`. Replay and the nonce
/// depend on what the sandbox remembers and are `SandboxState.accept(_:requireNonce:)`'s.
///
/// A proof received and checked, hence the name; the client's `DPoPProof` is one it signs.
struct VerifiedDPoPProof: Sendable {
    /// The RFC 7638 thumbprint of the proof's key: what `cnf.jkt` of a bound token holds.
    let thumbprint: String
    let jti: String
    let iat: Date
    let nonce: String?

    /// Why a proof is refused: one of Okta's `invalid_dpop_proof` descriptions (okta-core.md §H3).
    struct Rejected: Error, Equatable {
        let description: String
        init(_ description: String) { self.description = description }

        static let missing = Rejected("The DPoP proof JWT header is missing.")
        static let multiple = Rejected("Multiple DPoP proof JWT headers are not allowed.")
        static let unparsable = Rejected("The DPoP proof JWT cannot be parsed.")
        static let type = Rejected("'typ' must be 'dpop+jwt' in the DPoP proof JWT.")
        static let algorithm = Rejected("The DPoP proof JWT signature algorithm is invalid.")
        static let invalid = Rejected("The DPoP proof JWT is invalid.")
        static let signature = Rejected("The DPoP proof JWT signature is invalid.")
        static let method = Rejected("'htm' claim in the DPoP proof JWT is invalid.")
        static let url = Rejected("'htu' claim in the DPoP proof JWT is invalid.")
        static let issuedAt = Rejected("'iat' claim in the DPoP proof JWT is invalid.")
        static let future = Rejected("The DPoP proof JWT is issued in the future.")
        static let old = Rejected("The DPoP proof JWT is issued more than five minutes in the past.")
        static let identifier = Rejected("'jti' claim in the DPoP proof JWT is invalid.")
        static let replayed = Rejected("The DPoP proof JWT has already been used.")
        static let accessTokenHash = Rejected("'ath' claim in the DPoP proof does not match the presented access_token.")
        static let notBound = Rejected("The access_token is not bound to the provided DPoP proof.")
        static let refreshTokenBinding = Rejected("Invalid DPoP Public Key binding in refresh token")
    }

    /// How old a proof may be (Okta's five minutes), and how far ahead of the sandbox clock a client's may run.
    static let maximumAge: TimeInterval = 300
    static let clockSkew: TimeInterval = 60
    /// The longest `jti` accepted. Every accepted `jti` is remembered for `maximumAge` + `clockSkew` to refuse its
    /// replay, and anyone can send a proof, so an unbounded one would let a flood of requests fill memory; a UUID
    /// is 36 characters and a 256-bit random value 43 in base64url, so 256 bytes refuses no real client.
    static let maximumIdentifierLength = 256

    /// The request's proof, or nil when it sent none; more than one `DPoP` header is refused.
    static func header(of request: HTTPFields) throws(Rejected) -> String? {
        let values = request[values: .dpop]
        guard values.count <= 1 else { throw .multiple }
        return values.first
    }

    /// Checks `proof` for a request with `method` to `urls` (the request's URL at the org URL and its aliases,
    /// normalised, `SandboxState.endpointURLs(path:)`) on the sandbox clock `now`; `accessToken` makes `ath`
    /// required.
    static func verify(
        _ proof: String, method: String, urls: Set<String>, now: Date, accessToken: String? = nil
    ) async throws(Rejected) -> VerifiedDPoPProof {
        guard let header = CompactJWT.header(of: proof) else { throw .unparsable }
        guard header["typ"] as? String == "dpop+jwt" else { throw .type }
        guard let algorithm = header["alg"] as? String, ClientPublicKey.algorithms.contains(algorithm) else { throw .algorithm }
        guard let jwk = header["jwk"] as? [String: Any], let key = try? ClientPublicKey(jwk: jwk) else { throw .invalid }
        guard key.accepts(algorithm: algorithm) else { throw .algorithm }
        let claims: DPoPProofClaims
        do {
            claims = try await key.verify(proof, algorithm: algorithm, as: DPoPProofClaims.self)
        } catch {
            throw .signature
        }
        guard claims.htm == method else { throw .method }
        guard let htu = claims.htu, let named = URINormalization.normalized(Self.withoutQuery(htu)), urls.contains(named) else {
            throw .url
        }
        guard let iat = claims.iat else { throw .issuedAt }
        let issued = Date(timeIntervalSince1970: iat)
        guard issued.timeIntervalSince(now) <= clockSkew else { throw .future }
        guard now.timeIntervalSince(issued) <= maximumAge else { throw .old }
        guard let jti = claims.jti, !jti.isEmpty, jti.utf8.count <= maximumIdentifierLength else { throw .identifier }
        if let accessToken {
            guard claims.ath == Data(SHA256.hash(data: Data(accessToken.utf8))).base64URLEncoded else { throw .accessTokenHash }
        }
        return VerifiedDPoPProof(thumbprint: key.thumbprint, jti: jti, iat: issued, nonce: claims.nonce)
    }

    /// RFC 9449 §4.3: `htu` is compared without its query and fragment.
    static func withoutQuery(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

extension HTTPField.Name {
    /// RFC 9449 §4.1 request header.
    static let dpop = Self("DPoP")!
    /// RFC 9449 §8 response header; Okta sends it lower-case (okta-oauth-service/SOURCES.md).
    static let dpopNonce = Self("dpop-nonce")!
}
