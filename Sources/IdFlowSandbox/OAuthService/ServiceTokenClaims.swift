import JWTKit

/// The claims of a client-credentials access token (okta-core.md §H2): `sub` = `cid` = the client id, no `uid`,
/// `scp` an array, and `cnf.jkt` when it is DPoP-bound.
struct ServiceAccessTokenClaims: JWTPayload, Equatable {
    var ver: Int = 1
    /// `AT.` + random; the key of the sandbox's record of the token.
    var jti: String
    var iss: String
    var aud: String
    var iat: Int
    var exp: Int
    var cid: String
    var scp: [String]
    var sub: String
    var cnf: TokenConfirmation?

    /// Signature checks are jwt-kit's; expiry is judged by the sandbox clock (the token's record).
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of a client assertion (RFC 7523 §3) the sandbox reads; each is checked by `ClientAssertionVerifier`.
struct ClientAssertionClaims: JWTPayload {
    var iss: String?
    var sub: String?
    var aud: Audience?
    var exp: Double?
    var iat: Double?
    var jti: String?

    /// `aud` may be one string or an array of them (RFC 7519 §4.1.3).
    enum Audience: Codable, Sendable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .one(let value): try container.encode(value)
            case .many(let values): try container.encode(values)
            }
        }

        var values: [String] {
            switch self {
            case .one(let value): return [value]
            case .many(let values): return values
            }
        }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of a DPoP proof (RFC 9449 §4.2).
struct DPoPProofClaims: JWTPayload {
    var jti: String?
    var htm: String?
    var htu: String?
    var iat: Double?
    var nonce: String?
    var ath: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
