import Foundation
import IdFlowSandbox
import Testing

private let serviceAppId = "0oaidflowbearerapp00"
private let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

private func withBearerApp(_ key: TestClientKey, _ test: @Sendable (SandboxClient) async throws -> Void) async throws {
    try await withSandbox(
        configure: {
            $0.serviceApps = [
                ServiceAppConfiguration(clientId: serviceAppId, publicKey: key.publicPEM, keyId: "k1", scopes: ["okta.users.read"])
            ]
        }, test)
}

extension SandboxClient {
    fileprivate func bearerGrant(_ assertion: String, scope: String? = "openid profile") async throws -> Reply {
        var fields = [("grant_type", jwtBearerGrant), ("assertion", assertion)]
        if let scope { fields.append(("scope", scope)) }
        return try await postForm("/oauth2/default/v1/token", fields)
    }

    /// An assertion for `subject`, to the default server's token endpoint unless told otherwise.
    fileprivate func userAssertion(
        _ key: TestClientKey, subject: String, audience: String? = nil, lifetime: TimeInterval = 300, jti: String? = UUID().uuidString
    ) async throws -> String {
        let audience = audience == nil ? await orgURL + "/oauth2/default/v1/token" : audience!
        return try await key.assertion(
            clientId: serviceAppId, audience: audience, now: await now, lifetime: lifetime, jti: jti, subject: subject, kid: "k1")
    }
}

@Suite("JWT bearer (RFC 7523) for a service app")
struct JWTBearerGrantTests {
    @Test("an assertion signed by the app's registered key buys the user's tokens, once")
    func grant() async throws {
        let key = try await TestClientKey.rsa()
        try await withBearerApp(key) { api in
            let (userId, _) = try await api.registerActiveUser(email: "bearer@example.com")
            let assertion = try await api.userAssertion(key, subject: "bearer@example.com")
            let reply = try await api.bearerGrant(assertion)
            #expect(reply.status == .ok, "\(reply.text)")
            let body = try reply.object()
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["refresh_token"] == nil)
            let access = try jwtClaims(try #require(body["access_token"] as? String))
            #expect(access["cid"] as? String == serviceAppId)
            #expect(access["uid"] as? String == userId)
            #expect(try idClaims(body)["sub"] as? String == userId)
            #expect(try await api.userInfo(try #require(body["access_token"] as? String)).status == .ok)

            try await api.bearerGrant(assertion)
                .expectOAuthError(.badRequest, "invalid_grant", "The assertion has already been used.")
            // The issuer is an audience too, and the user may be named by id.
            let byIssuer = try await api.userAssertion(key, subject: userId, audience: await api.orgURL + "/oauth2/default")
            #expect(try await api.bearerGrant(byIssuer).status == .ok)
        }
    }

    @Test("iss, sub, aud, exp and jti checked, each with its refusal")
    func refusals() async throws {
        let key = try await TestClientKey.rsa()
        let stranger = try await TestClientKey.rsa()
        try await withBearerApp(key) { api in
            _ = try await api.registerActiveUser(email: "checked@example.com")
            let user = "checked@example.com"
            try await api.bearerGrant(try await api.userAssertion(key, subject: "nobody@example.com"))
                .expectOAuthError(.badRequest, "invalid_grant", "The assertion's subject is not an active user.")
            try await api.bearerGrant(try await api.userAssertion(key, subject: user, audience: "https://elsewhere.example/token"))
                .expectOAuthError(
                    .badRequest, "invalid_grant", "The assertion's audience must be this authorization server's issuer or token endpoint.")
            try await api.bearerGrant(try await api.userAssertion(stranger, subject: user))
                .expectOAuthError(
                    .badRequest, "invalid_grant", "The assertion's signature does not verify with a registered key of its issuer.")
            try await api.bearerGrant(try await api.userAssertion(key, subject: user, jti: nil))
                .expectOAuthError(.badRequest, "invalid_grant", "The assertion must contain a 'jti' claim.")
            try await api.bearerGrant(try await api.userAssertion(key, subject: user, lifetime: 7200))
                .expectOAuthError(.badRequest, "invalid_grant", "The assertion's expiration is more than an hour away.")
            try await api.bearerGrant(try await api.userAssertion(key, subject: user), scope: nil)
                .expectOAuthError(.badRequest, "invalid_scope", "No scopes were requested.")
            let soon = try await api.userAssertion(key, subject: user)
            try await api.advanceClock(seconds: 301)
            try await api.bearerGrant(soon).expectOAuthError(.badRequest, "invalid_grant", "The assertion has expired.")
        }
    }
}
