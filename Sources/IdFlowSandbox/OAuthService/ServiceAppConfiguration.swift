import Foundation

/// One entry of `serviceApps`: an OAuth 2.0 service app (okta-core.md §H1) that gets Okta-scoped access tokens from
/// the org authorization server with the client-credentials grant, authenticating with `private_key_jwt`.
///
/// `{"clientId", "publicKey" (PEM) | "jwks" ({"keys": [...]}), "keyId"?, "scopes": [...], "requireDPoP"?}`.
public struct ServiceAppConfiguration: Codable, Sendable, Equatable {
    public var clientId: String
    /// The PEM public key (SubjectPublicKeyInfo, RSA or EC) the app's assertions verify with.
    public var publicKey: String?
    /// Or a JWK Set of public keys, as Okta's app settings hold them; each key's `kid` is what assertions name.
    public var jwks: String?
    /// The `kid` of `publicKey`; assertions may then name it (with one key they need not).
    public var keyId: String?
    /// The scopes granted to the app (`okta.users.read`, `okta.users.manage`, …).
    public var scopes: [String]
    /// Okta's "Require DPoP header in token requests" (`dpop_bound_access_tokens`): a token request without a proof
    /// is refused, and tokens are bound to the proof's key.
    public var requireDPoP: Bool

    public init(
        clientId: String, publicKey: String? = nil, jwks: String? = nil, keyId: String? = nil, scopes: [String],
        requireDPoP: Bool = false
    ) {
        self.clientId = clientId
        self.publicKey = publicKey
        self.jwks = jwks
        self.keyId = keyId
        self.scopes = scopes
        self.requireDPoP = requireDPoP
    }

    /// The default service app's client id: a 20-character `0oa…` id like the other clients'.
    public static let defaultClientId = "0oaidflowservice0000"
    /// The scopes the default service app holds: everything the users API needs.
    public static let defaultScopes = ["okta.users.read", "okta.users.manage"]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case clientId, publicKey, jwks, keyId, scopes, requireDPoP
    }

    /// Unknown keys are refused, as at the top level; `jwks` is kept as its JSON text.
    public init(from decoder: any Decoder) throws {
        try ConfigurationKeys.refuseUnknown(decoder, known: CodingKeys.allCases.map(\.rawValue), key: "serviceApps")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientId = try container.decode(String.self, forKey: .clientId)
        publicKey = try container.decodeIfPresent(String.self, forKey: .publicKey)
        if let document = try container.decodeIfPresent(OrderedJSON.self, forKey: .jwks) {
            jwks = document.serialized()
        }
        keyId = try container.decodeIfPresent(String.self, forKey: .keyId)
        scopes = try container.decode([String].self, forKey: .scopes)
        requireDPoP = try container.decodeIfPresent(Bool.self, forKey: .requireDPoP) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientId, forKey: .clientId)
        try container.encodeIfPresent(publicKey, forKey: .publicKey)
        if let jwks, let object = try? JSONSerialization.jsonObject(with: Data(jwks.utf8)) as? [String: Any] {
            try container.encode(ServiceAppKeys.publicJWKs(object).map { $0.members.merging(["kid": $0.kid ?? ""]) { $1 } }, forKey: .jwks)
        }
        try container.encodeIfPresent(keyId, forKey: .keyId)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(requireDPoP, forKey: .requireDPoP)
    }

    /// The keys assertions are checked against; throws the configuration error that says what is wrong.
    func keys() throws -> [ClientPublicKey] {
        let key = "serviceApps.\(clientId)"
        switch (publicKey, jwks) {
        case (let pem?, nil):
            do {
                return [try ClientPublicKey(pem: pem, kid: keyId)]
            } catch {
                throw SandboxConfigurationError.invalidValue(key: key + ".publicKey", reason: error.reason)
            }
        case (nil, let text?):
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw SandboxConfigurationError.invalidValue(key: key + ".jwks", reason: "must be a JSON object {\"keys\": [...]}")
            }
            do {
                let keys = try ServiceAppKeys.publicJWKs(object)
                guard !keys.isEmpty else { throw ClientPublicKey.Unusable(reason: "needs at least one key") }
                if keys.count > 1, Set(keys.compactMap(\.kid)).count != keys.count {
                    throw ClientPublicKey.Unusable(reason: "with several keys, each needs its own kid")
                }
                return keys
            } catch let error as ClientPublicKey.Unusable {
                throw SandboxConfigurationError.invalidValue(key: key + ".jwks", reason: error.reason)
            }
        default:
            throw SandboxConfigurationError.invalidValue(key: key, reason: "set exactly one of publicKey and jwks")
        }
    }

    func validate(otherClientIds: [String]) throws {
        if clientId.isEmpty || otherClientIds.contains(clientId) {
            throw SandboxConfigurationError.invalidValue(
                key: "serviceApps.clientId", reason: "must be set, and differ from every other client id (\(clientId))")
        }
        if scopes.contains(where: { $0.isEmpty || $0.contains(" ") }) {
            throw SandboxConfigurationError.invalidValue(key: "serviceApps.\(clientId).scopes", reason: "scopes are single words")
        }
        _ = try keys()
    }
}

/// Reading a JWK Set's public keys.
enum ServiceAppKeys {
    static func publicJWKs(_ jwks: [String: Any]) throws(ClientPublicKey.Unusable) -> [ClientPublicKey] {
        guard let keys = jwks["keys"] as? [[String: Any]] else {
            throw ClientPublicKey.Unusable(reason: "must be {\"keys\": [JWK, ...]}")
        }
        return try keys.map { (jwk) throws(ClientPublicKey.Unusable) in try ClientPublicKey(jwk: jwk) }
    }
}
