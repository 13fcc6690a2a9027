import Foundation

/// MFA attestation (direct-auth.md §8): an app asks Okta only to vouch that the user passed MFA, with
/// `acr_values=urn:okta:app:mfa:attestation`. The answer is an ID token alone (`access_token` null, `expires_in` 0,
/// `scope` openid), its `acr` the attestation's. Okta allows it only for a confidential client at the org
/// authorization server, with `scope=openid`, a `login_hint` and no other ACR value; each refusal is its recorded one.
enum MFAAttestation {
    static let acr = "urn:okta:app:mfa:attestation"

    /// Whether this token request asks for an attestation; throws Okta's refusal when it asks in a way Okta refuses.
    static func requested(
        _ form: FormParameters, grant: DirectAuthGrant, client: OAuthClient, server: HostedAuthorizationServer,
        mfaPolicy: MFAPolicy
    ) throws -> Bool {
        let values = (form["acr_values"] ?? "").split(separator: " ").map(String.init)
        guard values.contains(acr) else { return false }
        guard values == [acr] else {
            throw DirectAuthError(.badRequest, "invalid_request", "urn:okta:app:mfa:attestation can not be used with any other ACR values.")
        }
        guard !client.isPublic else {
            throw DirectAuthError(.badRequest, "invalid_request", "Client authentication is required for MFA attestation requests.")
        }
        guard form["scope"] == "openid" else {
            throw DirectAuthError(.badRequest, "invalid_scope", "'scope' must be 'openid' for MFA attestation.")
        }
        if grant == .otp, (form["login_hint"] ?? "").isEmpty {
            throw DirectAuthError(.badRequest, "invalid_request", "'login_hint' is required for MFA attestation.")
        }
        guard server == .org else {
            throw DirectAuthError(.forbidden, "access_denied", "MFA attestation requests cannot use a custom authorization server.")
        }
        guard mfaPolicy != .never else {
            throw DirectAuthError(
                .badRequest, "mfa_not_required",
                "The MFA attestation request cannot proceed because the client app policy does not require MFA.")
        }
        return true
    }
}
