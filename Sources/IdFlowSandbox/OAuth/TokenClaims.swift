import JWTKit

/// The claims of an access token, as Okta's custom AS issues them (okta-core.md §D, "JWT claims").
struct AccessTokenClaims: JWTPayload, Equatable {
    var ver: Int = 1
    /// `AT.` + random; the key of the sandbox's token record.
    var jti: String
    var iss: String
    var aud: String
    var iat: Int
    var exp: Int
    var cid: String
    var uid: String
    var scp: [String]
    /// The user's login (not the id) on Okta access tokens.
    var sub: String
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var auth_time: Int
    /// RFC 8705 §3.1: the token is bound to the client certificate whose SHA-256 thumbprint this holds (clients
    /// that authenticate with `tls_client_auth`), or RFC 9449 §6: to the DPoP key (`dpopBoundAccessTokens`); absent
    /// otherwise.
    var cnf: TokenConfirmation?

    /// Signature checks are jwt-kit's; expiry is judged by the sandbox clock, not here.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// `cnf`: `{"x5t#S256": base64url(SHA-256(certificate DER))}` for a certificate-bound token (RFC 8705),
/// `{"jkt": RFC 7638 thumbprint of the DPoP key}` for a DPoP-bound one (RFC 9449 §6.1).
struct TokenConfirmation: Codable, Sendable, Equatable {
    var certificateThumbprint: String?
    var keyThumbprint: String?

    init(certificateThumbprint: String? = nil, keyThumbprint: String? = nil) {
        self.certificateThumbprint = certificateThumbprint
        self.keyThumbprint = keyThumbprint
    }

    enum CodingKeys: String, CodingKey {
        case certificateThumbprint = "x5t#S256"
        case keyThumbprint = "jkt"
    }

    /// The same members, for introspection.
    var json: OrderedJSON {
        var object: JSONObject = [:]
        if let certificateThumbprint { object["x5t#S256"] = .string(certificateThumbprint) }
        if let keyThumbprint { object["jkt"] = .string(keyThumbprint) }
        return .object(object)
    }
}

/// The claims of an ID token (OIDC Core §2 plus Okta's `ver`, `idp`, `amr`).
struct IDTokenClaims: JWTPayload, Equatable {
    /// The user id (`00u…`).
    var sub: String
    var name: String?
    var email: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var email_verified: Bool?
    var ver: Int = 1
    var iss: String
    /// The client id.
    var aud: String
    var iat: Int
    var exp: Int
    var jti: String
    var amr: [String] = ["pwd"]
    /// Set only by an MFA attestation (`urn:okta:app:mfa:attestation`, direct-auth.md §8).
    var acr: String?
    var idp: String
    var nonce: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var preferred_username: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var auth_time: Int
    /// Left half of SHA-256 of the access token, base64url; set when the access token is signed.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var at_hash: String?
    /// The sign-in session (native-sso.md §1.2).
    var sid: String? = nil
    /// Left half of SHA-256 of the session's device secret, base64url (native-sso.md §1.2).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var ds_hash: String? = nil

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
