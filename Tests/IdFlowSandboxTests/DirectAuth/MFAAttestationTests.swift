import Foundation
import HTTPTypes
import OneTimePasscode
import Testing

@testable import IdFlowSandbox

/// MFA attestation (direct-auth.md §8): an ID token alone, as recorded, and each of Okta's refusals of a request
/// made the wrong way.
@Suite("direct auth: MFA attestation")
struct MFAAttestationTests {
    static let client = "0oaconfidential00001"
    static let secret = "attestation-secret-1"
    static let attestation = "urn:okta:app:mfa:attestation"

    @Test("a confidential client at the org server gets an ID token alone; every other way is refused as Okta refuses it")
    func attestation() async throws {
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.confidentialClientId = Self.client
            $0.confidentialClientSecret = Self.secret
            $0.directAuth.grants = [Self.client: ["otp"]]
        }) { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            let secret = TOTPSecret.random()
            try await api.state.seedAuthenticatorApp(login: "ada@example.com", secret: secret)
            func attest(
                _ code: String, scope: String = "openid", acr: String = Self.attestation, base: String = "/oauth2/v1",
                client: String = Self.client, authenticated: Bool = true
            ) async throws -> Reply {
                var fields = [("login_hint", "ada@example.com"), ("otp", code), ("scope", scope), ("acr_values", acr)]
                if authenticated { fields.append(("client_secret", Self.secret)) }
                return try await api.directToken(SandboxClient.otpGrant, fields, base: base, client: client)
            }
            let code = TOTP(secret: secret).code(at: await api.state.now)

            try await attest(code, acr: "\(Self.attestation) urn:okta:loa:2fa:any").expectDirectAuthError(
                .badRequest, "invalid_request", "urn:okta:app:mfa:attestation can not be used with any other ACR values.")
            try await attest(code, client: SandboxClient.directAuthClient, authenticated: false).expectDirectAuthError(
                .badRequest, "invalid_request", "Client authentication is required for MFA attestation requests.")
            try await attest(code, scope: "openid profile").expectDirectAuthError(
                .badRequest, "invalid_scope", "'scope' must be 'openid' for MFA attestation.")
            try await attest(code, base: "/oauth2/default/v1").expectDirectAuthError(
                .forbidden, "access_denied", "MFA attestation requests cannot use a custom authorization server.")

            let attested = try await attest(code)
            #expect(attested.status == .ok, "\(attested.text)")
            try attested.expectKeys(ofRecording: "swift-authfoundation-token-mfa_attestation.json")
            let body = try attested.object()
            #expect(body["access_token"] is NSNull, "\(attested.text)")
            #expect(body["expires_in"] as? Int == 0 && body["scope"] as? String == "openid" && body["token_type"] as? String == "Bearer")
            let claims = try jwtClaims(try #require(body["id_token"] as? String))
            #expect(claims["acr"] as? String == Self.attestation)
            #expect(claims["amr"] as? [String] == ["otp"])
            #expect(claims["at_hash"] == nil, "there is no access token to hash")
        }
    }

    @Test("an org whose policy never asks for MFA cannot attest it: mfa_not_required")
    func mfaNotRequired() async throws {
        try await withSandbox(configure: {
            $0.confidentialClientId = Self.client
            $0.confidentialClientSecret = Self.secret
            $0.directAuth.grants = [Self.client: ["otp"]]
            $0.mfaPolicy = .never
        }) { api in
            let fields = [
                ("login_hint", "ada@example.com"), ("otp", "123456"), ("scope", "openid"), ("acr_values", Self.attestation),
                ("client_secret", Self.secret),
            ]
            try await api.directToken(SandboxClient.otpGrant, fields, base: "/oauth2/v1", client: Self.client).expectDirectAuthError(
                .badRequest, "mfa_not_required",
                "The MFA attestation request cannot proceed because the client app policy does not require MFA.")
        }
    }
}
