import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import OneTimePasscode
import Testing

@Suite("Native SSO: device_sso and the device-secret token exchange")
struct NativeSSOExchangeTests {
    @Test("the native app asking for openid device_sso offline_access gets a device secret and ds_hash, shaped as recorded")
    func deviceSecretIssued() async throws {
        try await withSandbox { api in
            let pkce = PKCEPair()
            let (_, sessionToken) = try await api.registerActiveUser(email: "ds@example.com")
            let redirect = try await api.authorize(api.authorizePath(pkce: pkce, scope: deviceSSOScope, sessionToken: sessionToken))
            let reply = try await api.exchange(code: try #require(try api.redirectTarget(redirect).parameters["code"]), pkce: pkce)
            try reply.expectKeys(ofRecording: "kotlin-authfoundation-token-with-device-secret.json")
            let tokens = try reply.object()
            let secret = try #require(tokens["device_secret"] as? String)
            #expect(Data(base64Encoded: secret)?.count == 32)
            let claims = try idClaims(tokens)
            #expect(claims["ds_hash"] as? String == expectedDSHash(secret))
            #expect(claims["sid"] is String)
            // A refresh keeps the session's secret: ds_hash again, no new secret.
            let refreshed = try await api.refresh(try #require(tokens["refresh_token"] as? String))
            #expect(try refreshed.object()["device_secret"] == nil)
            #expect(try idClaims(try refreshed.object())["ds_hash"] as? String == expectedDSHash(secret))
        }
    }

    @Test("a client the configuration does not allow gets no device secret, nor without offline_access")
    func deviceSecretWithheld() async throws {
        try await withSandbox(configure: { $0.nativeSSO.deviceSSO = [] }) { api in
            let tokens = try await api.signInWithPKCE(email: "nods@example.com", scope: deviceSSOScope)
            #expect(tokens["device_secret"] == nil)
            #expect(try idClaims(tokens)["ds_hash"] == nil)
        }
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "nooffline@example.com", scope: "openid device_sso")
            #expect(tokens["device_secret"] == nil)
        }
    }

    @Test("a second app exchanges the secret and ID token: as recorded, the same sid and ds_hash, no new secret")
    func exchange() async throws {
        try await withSecondApp { api in
            let (secret, idToken, _) = try await api.signInWithDeviceSSO(email: "sso@example.com")
            let reply = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken)
            #expect(reply.status == .ok, "\(reply.text)")
            try reply.expectKeys(ofRecording: "kotlin-oauth2-token-exchange-native-sso-response.json")
            let body = try reply.object()
            #expect(body["issued_token_type"] as? String == accessTokenType)
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["device_secret"] == nil)
            let claims = try idClaims(body)
            let first = try jwtClaims(idToken)
            #expect(claims["aud"] as? String == secondAppId)
            #expect(claims["sub"] as? String == first["sub"] as? String)
            #expect(claims["sid"] as? String == first["sid"] as? String)
            #expect(claims["ds_hash"] as? String == expectedDSHash(secret))
            #expect(reply.header("Cache-Control") == "no-store")
            let access = try await api.introspect(try #require(body["access_token"] as? String))
            #expect(access["active"] as? Bool == false, "another client's token is not the public client's to introspect")
        }
    }

    @Test("the org authorization server exchanges too, with its own audience")
    func exchangeOnOrgServer() async throws {
        try await withSecondApp { api in
            let (secret, idToken, _) = try await api.signInWithDeviceSSO(email: "sso-org@example.com", base: "/oauth2/v1")
            let reply = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken, base: "/oauth2/v1")
            #expect(reply.status == .ok, "\(reply.text)")
            let wrong = try await api.nativeSSOExchange(
                deviceSecret: secret, idToken: idToken, base: "/oauth2/v1", overrides: ["audience": "api://default"])
            try wrong.expectOAuthError(
                .badRequest, "invalid_target", "Token Exchange requests must include a valid audience of the authorization server.")
        }
    }

    @Test("an expired ID token is still exchanged while its session lives; an idle session is not")
    func expiredIDToken() async throws {
        try await withSecondApp { api in
            let (secret, idToken, _) = try await api.signInWithDeviceSSO(email: "late@example.com")
            try await api.advanceClock(seconds: 3600 + 120)
            let late = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken)
            #expect(late.status == .ok, "\(late.text)")
            try await api.advanceClock(seconds: 7 * 24 * 3600 + 1)
            let idle = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken)
            try idle.expectOAuthError(
                .badRequest, "invalid_grant", "The 'subject_token' either expired or the session associated with it was terminated.")
        }
    }

    @Test("revoking the device secret ends the session: the exchange is refused and the session's tokens die")
    func revocation() async throws {
        try await withSecondApp { api in
            let (secret, idToken, tokens) = try await api.signInWithDeviceSSO(email: "rev-ds@example.com")
            let exchanged = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken)
            let secondAccess = try #require(try exchanged.object()["access_token"] as? String)
            let revoke = try await api.postForm(
                "/oauth2/default/v1/revoke",
                [("client_id", "0oaidflowsandbox0000"), ("token", secret), ("token_type_hint", "device_secret")])
            #expect(revoke.status == .ok && revoke.text.isEmpty)
            let after = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken)
            try after.expectOAuthError(
                .badRequest, "invalid_grant", "The 'subject_token' either expired or the session associated with it was terminated.")
            #expect(try await api.introspect(secret)["active"] as? Bool == false)
            #expect(try await api.introspect(try #require(tokens["access_token"] as? String))["active"] as? Bool == false)
            #expect(try await api.userInfo(secondAccess).status == .unauthorized)
            #expect(try await api.refresh(try #require(tokens["refresh_token"] as? String)).status == .badRequest)
        }
    }

    @Test("an app that requires two factors refuses a one-factor session: the recorded assurance refusal")
    func assurance() async throws {
        try await withSecondApp({ $0.nativeSSO.requireMFA = [secondAppId] }) { api in
            let (secret, idToken, _) = try await api.signInWithDeviceSSO(email: "mfa@example.com")
            let reply = try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken)
            try reply.expectOAuthError(.badRequest, "invalid_grant", "The client's assurance requirements are not met.")
        }
    }

    @Test("the same app takes a session that had two factors (Direct Authentication's password then OTP)")
    func assuranceMet() async throws {
        try await withSecondApp({
            $0.nativeSSO.requireMFA = [secondAppId]
            $0.freezeClock = true
        }) { api in
            _ = try await api.registerActiveUser(email: "mfa2@example.com")
            let secret = TOTPSecret.random()
            try await api.state.seedAuthenticatorApp(login: "mfa2@example.com", secret: secret)
            let first = try await api.passwordGrant("mfa2@example.com", scope: deviceSSOScope)
            let mfaToken = try #require(try first.object()["mfa_token"] as? String, "\(first.text)")
            let code = TOTP(secret: secret).code(at: await api.state.now)
            let tokens = try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", mfaToken), ("otp", code)])
            #expect(tokens.status == .ok, "\(tokens.text)")
            let body = try tokens.object()
            let deviceSecret = try #require(body["device_secret"] as? String, "Direct Authentication issues the secret too")
            let reply = try await api.nativeSSOExchange(deviceSecret: deviceSecret, idToken: try #require(body["id_token"] as? String))
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try idClaims(try reply.object())["amr"] as? [String] == ["pwd", "otp", "mfa"])
        }
    }

    @Test("the recorded refusals: types, tokens, audience, and a client without the grant")
    func refusals() async throws {
        try await withSecondApp({ $0.nativeSSO.tokenExchange = [secondAppId] }) { api in
            let (secret, idToken, tokens) = try await api.signInWithDeviceSSO(email: "refuse@example.com")
            let (otherSecret, _, _) = try await api.signInWithDeviceSSO(email: "other@example.com")
            func exchange(_ overrides: [String: String?], clientId: String = secondAppId) async throws -> Reply {
                try await api.nativeSSOExchange(deviceSecret: secret, idToken: idToken, clientId: clientId, overrides: overrides)
            }
            try await exchange(["actor_token_type": "urn:example:unknown"])
                .expectOAuthError(.badRequest, "invalid_request", "'actor_token_type' is invalid or not supported.")
            try await exchange(["actor_token_type": nil])
                .expectOAuthError(.badRequest, "invalid_request", "'actor_token_type' is invalid or not supported.")
            try await exchange(["subject_token_type": "urn:example:unknown"])
                .expectOAuthError(.badRequest, "invalid_request", "'subject_token_type' is invalid or not supported.")
            try await exchange(["subject_token_type": accessTokenType])
                .expectOAuthError(
                    .badRequest, "invalid_request",
                    "When 'actor_token_type' is '\(deviceSecretType)', 'subject_token_type' must be '\(idTokenType)'.")
            try await exchange(["audience": nil])
                .expectOAuthError(
                    .badRequest, "invalid_target", "Token Exchange requests must include a valid audience of the authorization server.")
            try await exchange(["subject_token": try #require(tokens["access_token"] as? String)])
                .expectOAuthError(.badRequest, "invalid_request", "'subject_token' is invalid.")
            try await exchange(["subject_token": "not-a-jwt"])
                .expectOAuthError(.badRequest, "invalid_request", "'subject_token' is invalid.")
            try await exchange(["actor_token": "bm90IGEgc2VjcmV0"])
                .expectOAuthError(.badRequest, "invalid_request", "'actor_token' is invalid.")
            try await exchange(["actor_token": otherSecret])
                .expectOAuthError(.badRequest, "invalid_request", "'subject_token' is invalid.")
            try await exchange([:], clientId: "0oaidflowsandbox0000")
                .expectOAuthError(
                    .badRequest, "unsupported_grant_type", "'urn:ietf:params:oauth:grant-type:token-exchange' grant type is not supported.")
            #expect(try await exchange([:]).status == .ok)
        }
    }

    @Test("the configuration file's nativeSSO keys, and it names only clients it has")
    func configurationChecked() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("native-sso-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            """
            {"nativeSSO": {"apps": [{"clientId": "0oaidflowsecondapp00"}], "deviceSSO": ["0oaidflowsecondapp00"],
             "tokenExchange": ["0oaidflowsecondapp00"], "requireMFA": ["0oaidflowsecondapp00"],
             "interclientTrust": {"0oaidflowsecondapp00": ["0oaidflowsandbox0000"]}}}
            """.utf8
        ).write(to: file)
        let loaded = try SandboxConfiguration.load(from: file)
        #expect(loaded.nativeSSO.apps == [NativeApp(clientId: secondAppId)])
        #expect(loaded.nativeSSO.requireMFA == [secondAppId])
        #expect(loaded.nativeSSO.interclientTrust == [secondAppId: ["0oaidflowsandbox0000"]])
        var configuration = SandboxConfiguration()
        configuration.nativeSSO.requireMFA = ["0oanosuchapp00000000"]
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
        configuration = SandboxConfiguration()
        configuration.nativeSSO.apps = [NativeApp(clientId: configuration.clientId)]
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
    }
}
