import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// A JWT from any issuer and the key set it is checked against, both arbitrary: `token inspect`'s decoding and
    /// times, then the validator's header, key choice, signature and claims checks (the ID-token path).
    static let jwt = FuzzTarget(
        name: "jwt",
        summary: "JWT decoding, token inspect's times and validation against a JWKS (token, separator, JWKS)"
    ) { input in
        let parts = FuzzInput.parts(input, 2)
        let token = FuzzInput.text(parts[0])
        let keySet = parts[1]
        guard let decoded = try? DecodedJWT(token) else { return }
        let now = decoded.issuedAt ?? Date(timeIntervalSince1970: 1_700_000_000)
        _ = TokenTimes(decoded, at: now)
        _ = InspectToken.DPoPBinding(claims: decoded.claims, stored: nil)
        _ = decoded.notBefore
        let policy = TokenValidationPolicy(
            issuer: decoded.claims["iss"]?.stringValue ?? "https://org.example",
            audience: decoded.claims["aud"]?.stringValue, nonce: .notInThisGrant(.refreshToken),
            accessToken: decoded.claims["at_hash"] == nil ? nil : "fuzz-access-token", now: now)
        blocking {
            _ = try? await JWTValidator(keys: StaticKeySet(jwks: keySet)).validate(token, policy: policy)
        }
    }
}
