import Crypto
import Foundation
import _CryptoExtras

/// The private key a client proves itself with at the token endpoint (`private_key_jwt`, RFC 7523): an RSA key
/// (RS256, what Okta's Admin Console generates) or an EC P-256 key (ES256), read from PEM. The public half is
/// registered on the app; the private half never leaves this machine, and only the assertions it signs are sent.
public struct ClientAssertionKey: Sendable {
    enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case ec(P256.Signing.PrivateKey)
    }

    let material: Material
    /// The `kid` put in each assertion's header; Okta needs it when the app has more than one key.
    public let keyID: String?

    /// The JWS algorithm of this key.
    public var algorithm: String {
        switch material {
        case .rsa: return "RS256"
        case .ec: return "ES256"
        }
    }

    /// Reads a PEM private key (PKCS#8, PKCS#1 `RSA PRIVATE KEY` or SEC1 `EC PRIVATE KEY`); `origin` names where it
    /// came from in the error.
    public init(pem: String, keyID: String?, origin: String) throws(IdFlowError) {
        self.keyID = keyID.flatMap { $0.isEmpty ? nil : $0 }
        let text = pem.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("-----BEGIN"), text.contains("PRIVATE KEY-----") else {
            throw .configuration(
                "\(origin) holds no PEM private key",
                hint: "give the service app's private key as PEM (-----BEGIN PRIVATE KEY-----), the file Okta's Admin Console offers")
        }
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            material = .ec(key)
        } else if let key = try? _RSA.Signing.PrivateKey(pemRepresentation: text) {
            guard key.keySizeInBits >= 2048 else {
                throw .configuration("the RSA key in \(origin) has \(key.keySizeInBits) bits", hint: "Okta requires at least 2048")
            }
            material = .rsa(key)
        } else {
            throw .configuration(
                "the private key in \(origin) is neither RSA nor EC P-256, or cannot be read",
                hint:
                    "use an RSA (RS256) or P-256 (ES256) key in PEM; an encrypted key must be decrypted first (openssl pkey -in K -out K2)")
        }
    }

    package func sign(_ input: Data) throws(IdFlowError) -> Data {
        do {
            switch material {
            case .rsa(let key): return try key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation
            case .ec(let key): return try key.signature(for: input).rawRepresentation
            }
        } catch {
            throw .internalFailure("cannot sign the client assertion: \(error)")
        }
    }
}

/// The signed JWT a `private_key_jwt` client sends as `client_assertion` (RFC 7523 §3, okta-core.md §H1):
/// `iss` = `sub` = the client id, `aud` = the token URL, a fresh `jti` and a five-minute `exp`. A new one for
/// each attempt: the server refuses a `jti` it has seen.
public struct ClientAssertion: Sendable {
    public static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    public var clientID: String
    public var key: ClientAssertionKey

    public init(clientID: String, key: ClientAssertionKey) {
        self.clientID = clientID
        self.key = key
    }

    /// The assertion for a request to `audience` (the token, introspection or revocation URL).
    func make(audience: URL, now: Date) throws(IdFlowError) -> String {
        let issuedAt = Double(Int(now.timeIntervalSince1970))
        var header: [String: JSONValue] = ["alg": .string(key.algorithm), "typ": "JWT"]
        if let kid = key.keyID { header["kid"] = .string(kid) }
        let claims: JSONValue = [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(DPoPProof.targetURI(audience)),
            "iat": .number(issuedAt), "exp": .number(issuedAt + 300), "jti": .string(UUID().uuidString.lowercased()),
        ]
        return try CompactJWS.sign(header: .object(header), claims: claims) { (input: Data) throws(IdFlowError) in try key.sign(input) }
    }
}
