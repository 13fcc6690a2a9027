import Foundation

/// Where signing keys come from: the issuer's `jwks_uri`, cached in the state dir (``JWKSCache``), or a fixed set.
public protocol SigningKeySource: Sendable {
    /// The JWKS document; `refresh: true` bypasses the cache (used once when a token names an unknown `kid`).
    func keySet(refresh: Bool) async throws(IdFlowError) -> Data
}

/// A key set known up front (a pinned JWKS, the sandbox's own keys, tests); `refresh` changes nothing.
public struct StaticKeySet: SigningKeySource {
    public let jwks: Data

    public init(jwks: Data) {
        self.jwks = jwks
    }

    public func keySet(refresh: Bool) async throws(IdFlowError) -> Data { jwks }
}

/// A JWKS document split into its keys, each kept as JSON so one key of a type idflow does not know
/// (an `oct` or `OKP` key, a future algorithm) cannot make the whole set unusable.
package struct JSONWebKeySet: Sendable {
    package var keys: [JSONValue]

    /// Parses a JWKS; anything that is not a JSON object with a `keys` array is `.protocolViolation`.
    package init(data: Data, source: String) throws(IdFlowError) {
        guard let document = try? JSONValue(data: data) else {
            throw .protocolViolation("the JWKS from \(source) is not JSON")
        }
        guard let keys = document["keys"]?.arrayValue else {
            throw .protocolViolation("the JWKS from \(source) has no \"keys\" array")
        }
        self.keys = keys
    }
}
