import Foundation

/// The JWS compact serialisation (RFC 7515 §7.1) of the JWTs idflow signs itself: device attestations and
/// challenge answers, client assertions, DPoP proofs. The signature is swift-crypto's; only the framing is here,
/// in one place, so every signer encodes its header and claims the same way.
package enum CompactJWS {
    package static func sign(header: JSONValue, claims: JSONValue, signature: (Data) throws(IdFlowError) -> Data) throws(IdFlowError)
        -> String
    {
        // JSONValue writes its own compact bytes (a proof per request in a batch); the encoder only for a fraction.
        func bytes(_ value: JSONValue) throws(IdFlowError) -> Data {
            if let compact = value.compactJSON() { return Data(compact) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                return try encoder.encode(value)
            } catch {
                throw .internalFailure("cannot encode a JWT to sign: \(error)")
            }
        }
        let signingInput = "\(Base64URL.encode(try bytes(header))).\(Base64URL.encode(try bytes(claims)))"
        return "\(signingInput).\(Base64URL.encode(try signature(Data(signingInput.utf8))))"
    }
}
