import Crypto
import Foundation

/// The key a DPoP-bound token is bound to (RFC 9449): an EC P-256 key idflow makes for one login or one service
/// app's cached token and keeps beside that token, since every later use of the token must be signed by it.
/// ES256 because a proof is signed for every request, and `register --batch` makes thousands of them.
public struct DPoPKey: Sendable, Equatable {
    let privateKey: P256.Signing.PrivateKey

    init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    public static func generate() -> DPoPKey { DPoPKey(privateKey: P256.Signing.PrivateKey()) }

    /// The key as kept in a 0600 file: the private scalar, base64url.
    public var stored: String { Base64URL.encode(privateKey.rawRepresentation) }

    /// A kept key read back; nil when the text is not one.
    public init?(stored: String) {
        guard let raw = Base64URL.decode(stored), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
        self.privateKey = key
    }

    /// The public half as the proof's `jwk` header carries it: the members RFC 7638 names for EC keys, nothing private.
    var publicJWK: JSONValue {
        let raw = privateKey.publicKey.rawRepresentation
        return [
            "crv": "P-256", "kty": "EC", "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32))),
        ]
    }

    /// RFC 7638's SHA-256 thumbprint, base64url: what a bound token's `cnf.jkt` must equal.
    public var thumbprint: String { Self.thumbprint(of: privateKey.publicKey) }

    /// The thumbprint of any P-256 public key: its required JWK members in lexicographic order, no whitespace
    /// (RFC 7638 §3.2), hashed.
    static func thumbprint(of publicKey: P256.Signing.PublicKey) -> String {
        let raw = publicKey.rawRepresentation
        let canonical =
            #"{"crv":"P-256","kty":"EC","x":""# + Base64URL.encode(raw.prefix(32)) + #"","y":""# + Base64URL.encode(raw.suffix(32)) + #""}"#
        return Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }

    package func sign(_ input: Data) throws(IdFlowError) -> Data {
        do {
            return try privateKey.signature(for: input).rawRepresentation
        } catch {
            throw .internalFailure("cannot sign a DPoP proof: \(error)")
        }
    }

    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool {
        lhs.privateKey.rawRepresentation == rhs.privateKey.rawRepresentation
    }
}
