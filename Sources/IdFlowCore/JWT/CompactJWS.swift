import Foundation

/// The JWS compact serialisation (RFC 7515 §7.1) of the JWTs idflow signs itself: device attestations and
/// challenge answers, client assertions, DPoP proofs. The signature is swift-crypto's; only the framing is here,
/// in one place, so every signer encodes its header and claims the same way.
enum CompactJWS {
    static func sign(header: JSONValue, claims: JSONValue, signature: (Data) throws(IdFlowError) -> Data) throws(IdFlowError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput: String
        do {
            signingInput = "\(Base64URL.encode(try encoder.encode(header))).\(Base64URL.encode(try encoder.encode(claims)))"
        } catch {
            throw .internalFailure("cannot encode a JWT to sign: \(error)")
        }
        return "\(signingInput).\(Base64URL.encode(try signature(Data(signingInput.utf8))))"
    }
}
