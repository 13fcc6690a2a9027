import Foundation
import HTTPTypes
import OneTimePasscode
import Testing

@testable import IdFlowSandbox

/// Direct Authentication's token grants: password (with `mfa_required`), OTP, and the second factors after
/// `/challenge`; the password policy; each app's grants.
@Suite("direct auth: grants")
struct DirectAuthGrantTests {
    static let invalidOTP = "The 'otp' provided is either empty or incorrect. Use the correct OTP and try again."

    @Test("password without a second factor: tokens with amr pwd; wrong password invalid_grant")
    func passwordOnly() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            let tokens = try await api.passwordGrant("ada@example.com")
            #expect(tokens.status == .ok, "\(tokens.text)")
            try tokens.expectKeys(ofRecording: "swift-directauth-token.json")
            #expect(try tokens.amr() == ["pwd"])
            try await api.passwordGrant("ada@example.com", password: "Wrong-Password-0").expectDirectAuthError(
                .badRequest, "invalid_grant", "The credentials provided were invalid.")
            try await api.passwordGrant("ada@example.com", scope: "profile").expectDirectAuthError(
                .badRequest, "invalid_scope", "The 'openid' scope is required.")
        }
    }

    @Test("password with a push enrollment: 403 mfa_required as recorded, then /challenge mfa-otp and the mfa-otp grant")
    func passwordThenOTP() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let required = try await api.passwordGrant("ada@example.com")
            try required.expectDirectAuthError(
                .forbidden, "mfa_required", "Verify with an additional authenticator to complete the sign-in process.")
            try required.expectKeys(ofRecording: "swift-directauth-token-mfa_required.json")
            #expect(required.keysAppearInOrder(["error", "error_description", "mfa_token", "supported_challenge_types"]))
            let body = try required.object()
            #expect(body["supported_challenge_types"] as? String == "\(SandboxClient.mfaOTPGrant) \(SandboxClient.mfaOOBGrant)")
            let mfaToken = try #require(body["mfa_token"] as? String)
            #expect(mfaToken.count == 20)

            let challenge = try await api.challenge(mfaToken, types: SandboxClient.mfaOTPGrant)
            #expect(challenge.status == .ok && challenge.header("Content-Type") == "application/json")
            try challenge.expectKeys(ofRecording: "kotlin-challenge-otp-response.json")
            let code = try await api.totpCode(device)
            try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", mfaToken), ("otp", "000000")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.invalidOTP)
            let tokens = try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", mfaToken), ("otp", code)])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.amr() == ["pwd", "otp", "mfa"])
            #expect(try tokens.object()["scope"] as? String == "openid profile offline_access")

            let again = try await api.mfaToken("ada@example.com")
            try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", again), ("otp", code)])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.invalidOTP)
            try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", again), ("otp", code), ("scope", "openid")])
                .expectDirectAuthError(
                    .badRequest, "invalid_scope",
                    "The requested scopes 'openid' do not match the scopes requested in the original request 'openid profile "
                        + "offline_access'. Use the originally requested scopes and try again.")
        }
    }

    @Test("password then /challenge mfa-oob push: recorded shape, the push approved on the device, the mfa-oob grant")
    func passwordThenPush() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let mfaToken = try await api.mfaToken("ada@example.com")
            let types = "\(SandboxClient.mfaOTPGrant) \(SandboxClient.mfaOOBGrant)"
            let reply = try await api.challenge(mfaToken, types: types, channel: "push")
            #expect(reply.status == .ok, "\(reply.text)")
            try reply.expectKeys(ofRecording: "swift-directauth-challenge-oob.json")
            try reply.expectKeys(ofRecording: "kotlin-oob-authenticate-push-response.json")
            #expect(reply.keysAppearInOrder(["challenge_type", "oob_code", "expires_in", "interval", "channel", "binding_method"]))
            let oobCode = try #require(try reply.object()["oob_code"] as? String)

            let other = try await api.mfaToken("ada@example.com")
            try await api.directToken(SandboxClient.mfaOOBGrant, [("mfa_token", other), ("oob_code", oobCode)])
                .expectDirectAuthError(
                    .badRequest, "invalid_request",
                    "The 'oob_code' and the 'mfa_token' provided are not associated with each other. Review the values and try again.")
            try await api.pollOOB(oobCode).expectDirectAuthError(
                .badRequest, "invalid_request",
                "The 'oob_code' and the 'mfa_token' provided are not associated with each other. Review the values and try again.")
            #expect(try await api.answerPush(device).status == .ok)
            let tokens = try await api.directToken(SandboxClient.mfaOOBGrant, [("mfa_token", mfaToken), ("oob_code", oobCode)])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.amr() == ["pwd", "swk", "mfa"])
            try await api.challenge(mfaToken, types: SandboxClient.mfaOTPGrant).expectDirectAuthError(
                .forbidden, "access_denied", "'mfa_token' has expired. Use a new 'mfa_token' and try again.")
        }
    }

    @Test("challenge: number challenge on mfa-oob, unknown challenge types, expired mfa_token")
    func challengeCases() async throws {
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.directAuth.numberChallenge = true
        }) { api in
            _ = try await api.enrollDevice(email: "ada@example.com")
            let mfaToken = try await api.mfaToken("ada@example.com")
            let transfer = try await api.challenge(mfaToken, types: SandboxClient.mfaOOBGrant, channel: "push")
            try transfer.expectKeys(ofRecording: "swift-directauth-challenge-oob-binding-transfer.json")
            try await api.challenge(mfaToken, types: "urn:okta:params:oauth:grant-type:mfa-email").expectDirectAuthError(
                .badRequest, "invalid_request",
                "urn:okta:params:oauth:grant-type:mfa-email is not supported as a 'challenge_type'. Try again with another value.")
            // A type the user has no authenticator for.
            try await api.challenge(mfaToken, types: "urn:okta:params:oauth:grant-type:mfa-webauthn").expectDirectAuthError(
                .forbidden, "access_denied",
                "The required authenticator cannot be used. Check if it is required by policy and the user is enrolled in the "
                    + "authenticator and try again.")
            try await api.advanceClock(seconds: 301)
            try await api.challenge(mfaToken, types: SandboxClient.mfaOTPGrant).expectDirectAuthError(
                .forbidden, "access_denied", "'mfa_token' has expired. Use a new 'mfa_token' and try again.")
        }
    }

    @Test("the OTP grant: a code of the authenticator app, never the same time step twice")
    func otpGrant() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            let secret = TOTPSecret.random()
            try await api.state.seedAuthenticatorApp(login: "ada@example.com", secret: secret)
            let code = TOTP(secret: secret).code(at: await api.state.now)
            let fields = [("login_hint", "ada@example.com"), ("otp", code), ("scope", "openid")]
            let tokens = try await api.directToken(SandboxClient.otpGrant, fields)
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.amr() == ["otp"])
            try await api.directToken(SandboxClient.otpGrant, fields).expectDirectAuthError(.badRequest, "invalid_grant", Self.invalidOTP)
            try await api.directToken(SandboxClient.otpGrant, [("otp", code), ("scope", "openid")]).expectDirectAuthError(
                .badRequest, "invalid_request", "A 'login_hint' is required for the request.")
            try await api.directToken(SandboxClient.otpGrant, [("login_hint", "nobody@example.com"), ("otp", code), ("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", "The 'login_hint' does not uniquely identify a user.")
        }
    }

    @Test("the password policy: lockout counts password-grant failures; an expired password is denied by policy")
    func passwordPolicy() async throws {
        try await withSandbox(configure: {
            $0.passwordPolicy.lockout.maxAttempts = 3
            $0.passwordPolicy.age.maxAgeDays = 30
        }) { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            for _ in 0..<3 {
                try await api.passwordGrant("ada@example.com", password: "Wrong-Password-0").expectDirectAuthError(
                    .badRequest, "invalid_grant", "The credentials provided were invalid.")
            }
            #expect(try await api.status(of: "ada@example.com") == "LOCKED_OUT")
            try await api.passwordGrant("ada@example.com").expectDirectAuthError(
                .badRequest, "invalid_grant", "The credentials provided were invalid.")

            _ = try await api.registerActiveUser(email: "bob@example.com")
            try await api.advanceClock(seconds: 31 * 86_400)
            try await api.passwordGrant("bob@example.com").expectDirectAuthError(
                .forbidden, "access_denied",
                "User couldn't be signed-in through direct authentication because authentication policy wasn't satisfied.")
        }
    }

    @Test("each app's grants: a grant the app lacks is unauthorized_client naming its grants; /sandbox/info lists them")
    func perAppGrants() async throws {
        try await withSandbox(configure: {
            $0.confidentialClientId = "0oaconfidential00000"
            $0.confidentialClientSecret = "s3cret"
            $0.directAuth.grants = [SandboxClient.directAuthClient: ["password", "mfa-otp"]]
        }) { api in
            _ = try await api.enrollDevice(email: "ada@example.com")
            let refusal =
                "The client is not authorized to use the provided grant type. Configured grant types: [authorization_code, "
                + "refresh_token, password, http://auth0.com/oauth/grant-type/mfa-otp]."
            try await api.primaryAuthenticate("ada@example.com").expectDirectAuthError(.badRequest, "unauthorized_client", refusal)
            try await api.directToken(SandboxClient.otpGrant, [("login_hint", "ada@example.com"), ("otp", "123456"), ("scope", "openid")])
                .expectDirectAuthError(.badRequest, "unauthorized_client", refusal)
            let mfaRequired = try await api.passwordGrant("ada@example.com").object()
            #expect(mfaRequired["supported_challenge_types"] as? String == SandboxClient.mfaOTPGrant)

            let info = try await api.send(.get, "/sandbox/info").object()
            let grants = try #require(info["directAuthGrants"] as? [String: [String]])
            #expect(grants[SandboxClient.directAuthClient] == ["password", SandboxClient.mfaOTPGrant])
            #expect(grants["0oaconfidential00000"] == [])
        }
    }

    @Test("directAuth configuration: defaults, and refusals of bad values")
    func configuration() throws {
        let defaults = SandboxConfiguration()
        #expect(defaults.directAuth.intervalSeconds == 5 && defaults.directAuth.expiresInSeconds == 300)
        #expect(defaults.directAuthGrants(of: defaults.clientId).count == 7)
        for change in [
            { (c: inout SandboxConfiguration) in c.directAuth.intervalSeconds = 0 },
            { $0.directAuth.expiresInSeconds = 0 },
            { $0.directAuth.grants = ["0oanobody": ["otp"]] },
            { $0.directAuth.grants = [$0.clientId: ["implicit"]] },
        ] {
            var configuration = SandboxConfiguration()
            change(&configuration)
            #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
        }
        let decoded = try JSONDecoder().decode(
            SandboxConfiguration.self,
            from: Data(#"{"directAuth": {"intervalSeconds": 1, "grants": {"0oaidflowsandbox0000": ["otp"]}}}"#.utf8))
        #expect(decoded.directAuth.intervalSeconds == 1 && decoded.directAuth.expiresInSeconds == 300)
        #expect(decoded.directAuthGrants(of: decoded.clientId) == [.otp])
    }
}
