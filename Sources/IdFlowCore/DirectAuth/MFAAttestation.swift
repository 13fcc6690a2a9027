import Foundation
import IdFlowFoundation

/// MFA attestation (direct-auth.md §8): `acr_values=urn:okta:app:mfa:attestation` asks Okta only to vouch that the
/// user passed MFA. The answer is an ID token alone (`access_token` null, `expires_in` 0), which idflow accepts only
/// when it asked for one, as the Swift SDK does: any other token answer without an access token is refused.
enum MFAAttestation {
    static let acr = "urn:okta:app:mfa:attestation"

    /// Whether `acrValues` asks for an attestation (Okta refuses it beside any other value, and says so).
    static func isAsked(_ acrValues: String?) -> Bool {
        (acrValues ?? "").split(separator: " ").contains(Substring(acr))
    }

    /// The ID token of an attestation answer, as a token response whose access token is empty: it is validated like
    /// every login's, then printed with `access_token` null and never stored. Nil for an answer that is not one.
    static func tokens(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse? {
        struct Wire: Decodable {
            var tokenType: String
            var accessToken: String?
            var scope: String?
            var idToken: String?

            enum CodingKeys: String, CodingKey {
                case tokenType = "token_type"
                case accessToken = "access_token"
                case scope
                case idToken = "id_token"
            }
        }
        guard response.isSuccess, let wire = try? JSONDecoder().decode(Wire.self, from: response.body), wire.accessToken == nil
        else { return nil }
        guard let idToken = wire.idToken else {
            throw .protocolViolation("the MFA attestation answer has neither an access token nor an ID token")
        }
        return TokenResponse(
            tokenType: wire.tokenType, accessToken: "", expiresIn: 0, scope: wire.scope, refreshToken: nil, idToken: idToken)
    }
}
