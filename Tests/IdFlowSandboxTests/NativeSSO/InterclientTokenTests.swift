import Foundation
import IdFlowSandbox
import Testing

/// The web app the interclient tests sign the browser in to: the confidential client, trusting the native app.
private let webAppId = "0oaidflowwebapp00000"
private let webAppSecret = "web-app-secret-0123456789"
private let interclientType = "urn:okta:params:oauth:token-type:interclient_token"

private func withTrust(trust: Bool = true, _ test: @Sendable (SandboxClient) async throws -> Void) async throws {
    try await withSandbox(
        configure: { configuration in
            configuration.confidentialClientId = webAppId
            configuration.confidentialClientSecret = webAppSecret
            configuration.nativeSSO.interclientTrust = trust ? [webAppId: [configuration.clientId]] : [:]
        }, test)
}

extension SandboxClient {
    /// The origin app's exchange for an interclient token (native-sso.md §2.2), as okta-aws-cli-style clients post it.
    fileprivate func interclientExchange(_ tokens: [String: Any], overrides: [String: String?] = [:]) async throws -> Reply {
        var fields: [(String, String?)] = [
            ("grant_type", tokenExchangeGrant), ("client_id", "0oaidflowsandbox0000"),
            ("actor_token", tokens["access_token"] as? String), ("actor_token_type", accessTokenType),
            ("subject_token", tokens["id_token"] as? String), ("subject_token_type", idTokenType),
            ("requested_token_type", interclientType), ("audience", "urn:okta:apps:\(webAppId)"),
        ]
        for (name, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == name }) { fields[index].1 = value } else { fields.append((name, value)) }
        }
        return try await postForm("/oauth2/v1/token", fields.compactMap { name, value in value.map { (name, $0) } })
    }

    /// The web app's `/authorize` with the interclient token (native-sso.md §2.3).
    fileprivate func authorizeWeb(interclientToken: String, clientId: String = webAppId) async throws -> Reply {
        var parameters = [
            ("client_id", clientId), ("response_type", "code"), ("scope", "openid profile"),
            ("redirect_uri", SandboxClient.redirectURI), ("state", "w3b"), ("interclient_token", interclientToken),
        ]
        // A public client's request needs PKCE before the token is looked at.
        if clientId != webAppId { parameters += [("code_challenge", PKCEPair().challenge), ("code_challenge_method", "S256")] }
        let query = parameters.map { "\($0.0)=\(formEscape($0.1))" }.joined(separator: "&")
        return try await authorize("/oauth2/v1/authorize?" + query)
    }
}

@Suite("Native-to-Web SSO: the interclient token")
struct InterclientTokenTests {
    static let originScope = "openid profile offline_access interclient_access"

    @Test("a trusted origin gets an N_A interclient token that signs the browser in to the web app with no password page")
    func signsTheBrowserIn() async throws {
        try await withTrust { api in
            let tokens = try await api.signInWithPKCE(email: "web@example.com", scope: Self.originScope, base: "/oauth2/v1")
            let reply = try await api.interclientExchange(tokens)
            #expect(reply.status == .ok, "\(reply.text)")
            let body = try reply.object()
            #expect(Set(body.keys) == ["token_type", "expires_in", "access_token", "issued_token_type"])
            #expect(body["token_type"] as? String == "N_A")
            #expect(body["expires_in"] as? Int == 300)
            #expect(body["issued_token_type"] as? String == interclientType)
            let token = try #require(body["access_token"] as? String)

            let redirect = try await api.authorizeWeb(interclientToken: token)
            let target = try api.redirectTarget(redirect)
            #expect(target.parameters["state"] == "w3b")
            let code = try #require(target.parameters["code"], "\(target.parameters)")
            #expect(redirect.header("Set-Cookie")?.hasPrefix("sid=") == true, "the browser is signed in")
            let exchanged = try await api.postForm(
                "/oauth2/v1/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SandboxClient.redirectURI),
                    ("client_id", webAppId), ("client_secret", webAppSecret),
                ])
            #expect(exchanged.status == .ok, "\(exchanged.text)")
            let claims = try idClaims(try exchanged.object())
            #expect(claims["aud"] as? String == webAppId)
            #expect(claims["sub"] as? String == (try idClaims(tokens))["sub"] as? String)
        }
    }

    @Test("each token is single use and lives five minutes on the sandbox clock, for its target only")
    func singleUseShortLife() async throws {
        try await withTrust { api in
            let tokens = try await api.signInWithPKCE(email: "once@example.com", scope: Self.originScope, base: "/oauth2/v1")
            let first = try #require(try await api.interclientExchange(tokens).object()["access_token"] as? String)
            _ = try api.redirectTarget(try await api.authorizeWeb(interclientToken: first))
            let replay = try api.redirectTarget(try await api.authorizeWeb(interclientToken: first))
            #expect(replay.parameters["error"] == "one_time_sso_token_replayed")
            #expect(replay.parameters["error_description"] == "The 'interclient_token' was already consumed.")
            #expect(replay.parameters["code"] == nil)

            let second = try #require(try await api.interclientExchange(tokens).object()["access_token"] as? String)
            let elsewhere = try api.redirectTarget(try await api.authorizeWeb(interclientToken: second, clientId: "0oaidflowsandbox0000"))
            #expect(elsewhere.parameters["error"] == "invalid_token")
            #expect(elsewhere.parameters["error_description"] == "The 'interclient_token' has an invalid audience.")

            let third = try #require(try await api.interclientExchange(tokens).object()["access_token"] as? String)
            try await api.advanceClock(seconds: 301)
            let late = try api.redirectTarget(try await api.authorizeWeb(interclientToken: third))
            #expect(late.parameters["error"] == "invalid_token")
            #expect(late.parameters["error_description"] == "The 'interclient_token' is invalid.")
            let garbage = try api.redirectTarget(try await api.authorizeWeb(interclientToken: "not-a-token"))
            #expect(garbage.parameters["error"] == "invalid_token")
        }
    }

    @Test("the recorded refusals: trust, the actor's scope, the audience, the requested type")
    func refusals() async throws {
        try await withTrust { api in
            let tokens = try await api.signInWithPKCE(email: "icref@example.com", scope: Self.originScope, base: "/oauth2/v1")
            try await api.interclientExchange(tokens, overrides: ["audience": "urn:okta:apps:0oanosuchapp00000000"])
                .expectOAuthError(
                    .badRequest, "invalid_target", "Token Exchange requests must include a valid audience of the authorization server.")
            try await api.interclientExchange(tokens, overrides: ["requested_token_type": "urn:example:unknown"])
                .expectOAuthError(.badRequest, "invalid_request", "'requested_token_type' is invalid or not supported.")
            try await api.interclientExchange(tokens, overrides: ["subject_token": "x.y.z"])
                .expectOAuthError(.badRequest, "invalid_request", "'subject_token' is invalid.")
            let plain = try await api.signInWithPKCE(email: "noscope@example.com", scope: "openid profile", base: "/oauth2/v1")
            try await api.interclientExchange(plain)
                .expectOAuthError(
                    .badRequest, "invalid_grant",
                    "The 'actor_token' must have the 'interclient_access' scope to request a 'interclient_token'.")
        }
        try await withTrust(trust: false) { api in
            let tokens = try await api.signInWithPKCE(email: "notrust@example.com", scope: "openid profile", base: "/oauth2/v1")
            try await api.interclientExchange(tokens)
                .expectOAuthError(.forbidden, "access_denied", "No trust relationship exists between the client app and the target app.")
            let (_, sessionToken) = try await api.registerActiveUser(email: "notrust2@example.com")
            let redirect = try await api.authorize(
                api.authorizePath(base: "/oauth2/v1", pkce: PKCEPair(), scope: Self.originScope, sessionToken: sessionToken))
            let target = try api.redirectTarget(redirect)
            #expect(target.parameters["error"] == "invalid_scope")
            #expect(
                target.parameters["error_description"]
                    == "The 'interclient_access' scope can only be granted to clients with a configured trust relationship.")
        }
    }
}
