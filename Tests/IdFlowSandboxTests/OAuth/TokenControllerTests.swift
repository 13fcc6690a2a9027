import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

@Suite("/v1/token")
struct TokenControllerTests {
    @Test(
        "the code flow returns the recorded token response keys, not cacheable")
    func tokenResponseShape() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "shape@example.com")
            let pkce = PKCEPair()
            let code = try #require(
                try api.redirectTarget(
                    try await api.authorize(
                        api.authorizePath(pkce: pkce, scope: "openid profile offline_access", sessionToken: sessionToken))
                ).parameters["code"])
            let reply = try await api.exchange(code: code, pkce: pkce)
            #expect(reply.status == .ok)
            #expect(reply.header("Cache-Control") == "no-store")
            #expect(reply.header("Pragma") == "no-cache")
            let body = try reply.object()
            let recorded = try Fixtures.object("okta-core/oauth-token-response-default-as.json")
            #expect(Set(body.keys) == Set(recorded.keys))
            #expect(reply.keysAppearInOrder(["token_type", "expires_in", "access_token", "scope", "refresh_token", "id_token"]))
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["expires_in"] as? Int == 3600)
            #expect(body["scope"] as? String == "openid profile offline_access")
        }
    }

    @Test("access and ID token claims, signed RS256 with the served key")
    func claims() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "claims@example.com", nonce: "abc123")
            let accessToken = try #require(tokens["access_token"] as? String)
            let idToken = try #require(tokens["id_token"] as? String)
            let keys = try await api.servedKeys()
            let jwks = try await api.send(.get, "/oauth2/default/v1/keys", auth: .none).object()
            let kid = try #require((jwks["keys"] as? [[String: Any]])?.first?["kid"] as? String)
            for token in [accessToken, idToken] {
                let header = try jwtHeader(token)
                #expect(header["alg"] as? String == "RS256")
                #expect(header["kid"] as? String == kid)
            }

            let orgURL = await api.state.orgURL
            let user = try await api.send(.get, "/api/v1/users/claims@example.com").object()
            let userId = try #require(user["id"] as? String)
            let access = try await keys.verify(accessToken, as: TestAccessClaims.self)
            #expect(access.ver == 1)
            #expect(access.jti?.hasPrefix("AT.") == true)
            #expect(access.iss == "\(orgURL)/oauth2/default")
            #expect(access.aud == "api://default")
            #expect(access.cid == "0oaidflowsandbox0000")
            #expect(access.uid == userId)
            #expect(access.sub == "claims@example.com")
            #expect(access.scp == ["openid", "profile", "email", "offline_access"])
            let iat = try #require(access.iat)
            #expect(access.exp == iat + 3600)
            // Stamped by the sandbox's clock, read back from it (this machine's clock may have moved on under load).
            let stampedBy = await api.state.now.timeIntervalSince1970
            #expect((0...3_600).contains(stampedBy - Double(iat)), "iat \(iat)")
            #expect(access.auth_time != nil && access.auth_time! <= iat)

            let id = try await keys.verify(idToken, as: TestIDClaims.self)
            #expect(id.sub == userId)
            #expect(id.aud == "0oaidflowsandbox0000")
            #expect(id.iss == "\(orgURL)/oauth2/default")
            #expect(id.ver == 1)
            #expect(id.exp == id.iat.map { $0 + 3600 })
            #expect(id.jti?.hasPrefix("ID.") == true)
            #expect(id.amr == ["pwd"])
            #expect(id.idp?.hasPrefix("00o") == true && id.idp?.count == 20)
            #expect(id.nonce == "abc123")
            #expect(id.auth_time == access.auth_time)
            #expect(id.name == "Ada Lovelace")
            #expect(id.preferred_username == "claims@example.com")
            #expect(id.email == "claims@example.com")
            #expect(id.email_verified == true)
            // at_hash per OIDC Core §3.1.3.6, computed here independently.
            let digest = Array(Data(sha256Digest(accessToken)).prefix(16))
            #expect(id.at_hash == base64URL(Data(digest)))
        }
    }

    @Test("claims follow the scopes: no profile/email claims without those scopes, no refresh token without offline_access")
    func claimsByScope() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "min@example.com", scope: "openid", nonce: nil)
            #expect(tokens["refresh_token"] == nil)
            #expect(tokens["scope"] as? String == "openid")
            let id = try await api.servedKeys().verify(try #require(tokens["id_token"] as? String), as: TestIDClaims.self)
            #expect(id.name == nil && id.preferred_username == nil && id.email == nil && id.email_verified == nil)
            #expect(id.nonce == nil)
        }
    }

    @Test("the org AS issues tokens with the org as issuer and audience")
    func orgAuthorizationServer() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "org@example.com", base: "/oauth2/v1")
            let accessToken = try #require(tokens["access_token"] as? String)
            let access = try await api.servedKeys(base: "/oauth2/v1").verify(accessToken, as: TestAccessClaims.self)
            let orgURL = await api.state.orgURL
            #expect(access.iss == orgURL)
            #expect(access.aud == orgURL)
            #expect(try await api.introspect(accessToken, base: "/oauth2/v1")["active"] as? Bool == true)
            #expect(try await api.introspect(accessToken)["active"] as? Bool == false, "not valid at another AS")
        }
    }

    @Test("access token lifetime comes from the configuration")
    func accessTokenLifetime() async throws {
        try await withSandbox(configure: { $0.accessTokenLifetimeSeconds = 300 }) { api in
            let tokens = try await api.signInWithPKCE(email: "short@example.com")
            #expect(tokens["expires_in"] as? Int == 300)
            let access = try await api.servedKeys().verify(try #require(tokens["access_token"] as? String), as: TestAccessClaims.self)
            #expect(access.exp.map { $0 - access.iat! } == 300)
        }
    }

    // MARK: Code errors

    /// Runs /authorize with a session token and returns a fresh code and its PKCE pair.
    static func freshCode(_ api: SandboxClient, email: String) async throws -> (String, PKCEPair) {
        let (_, sessionToken) = try await api.registerActiveUser(email: email)
        let pkce = PKCEPair()
        let reply = try await api.authorize(api.authorizePath(pkce: pkce, sessionToken: sessionToken))
        return (try #require(try api.redirectTarget(reply).parameters["code"]), pkce)
    }

    @Test(
        "a wrong code_verifier is invalid_grant \"PKCE verification failed.\" (recorded body)")
    func pkceMismatch() async throws {
        try await withSandbox { api in
            let (code, _) = try await Self.freshCode(api, email: "pkce@example.com")
            let reply = try await api.exchange(code: code, pkce: PKCEPair(verifier: String(repeating: "x", count: 50)))
            #expect(reply.status == .badRequest)
            let body = try reply.object()
            let recorded = try Fixtures.object("okta-core/oauth-error-invalid-grant-pkce.json")
            #expect(Set(body.keys) == Set(recorded.keys))
            #expect(body["error"] as? String == recorded["error"] as? String)
            #expect(body["error_description"] as? String == recorded["error_description"] as? String)
            #expect(reply.header("Content-Type") == "application/json;charset=UTF-8")
        }
    }

    @Test("a reused code is invalid_grant and revokes the tokens it produced")
    func codeReuse() async throws {
        try await withSandbox { api in
            let (code, pkce) = try await Self.freshCode(api, email: "reuse@example.com")
            let first = try await api.exchange(code: code, pkce: pkce).object()
            let accessToken = try #require(first["access_token"] as? String)
            let refreshToken = try #require(first["refresh_token"] as? String)
            #expect(try await api.introspect(accessToken)["active"] as? Bool == true)

            let second = try await api.exchange(code: code, pkce: pkce)
            #expect(second.status == .badRequest)
            #expect(try second.object()["error"] as? String == "invalid_grant")
            #expect(try second.object()["error_description"] as? String == "The authorization code is invalid or has expired.")
            #expect(try await api.introspect(accessToken)["active"] as? Bool == false)
            #expect(try await api.refresh(refreshToken).status == .badRequest)
        }
    }

    @Test("an expired code, a wrong redirect_uri or an unknown code is invalid_grant")
    func invalidCodes() async throws {
        try await withSandbox { api in
            let (expired, pkce1) = try await Self.freshCode(api, email: "c1@example.com")
            try await api.advanceClock(seconds: 301)
            let late = try await api.exchange(code: expired, pkce: pkce1)
            #expect(try late.object()["error"] as? String == "invalid_grant")

            let (code, pkce2) = try await Self.freshCode(api, email: "c2@example.com")
            let wrongRedirect = try await api.exchange(code: code, pkce: pkce2, redirectURI: "http://127.0.0.1/callback")
            #expect(try wrongRedirect.object()["error_description"] as? String == "The authorization code is invalid or has expired.")

            let unknown = try await api.exchange(code: "nope", pkce: pkce2)
            #expect(unknown.status == .badRequest)
            #expect(try unknown.object()["error"] as? String == "invalid_grant")
        }
    }

    @Test("client authentication errors: unknown client, none, both Basic and a secret")
    func clientErrors() async throws {
        try await withSandbox(configure: {
            $0.confidentialClientId = "0oaconfidential00000"
            $0.confidentialClientSecret = "s3cret"
        }) { api in
            let unknown = try await api.postForm(
                "/oauth2/default/v1/token", [("grant_type", "authorization_code"), ("client_id", "0oanope")])
            #expect(unknown.status == .unauthorized)
            #expect(try unknown.object()["error"] as? String == "invalid_client")
            let none = try await api.postForm("/oauth2/default/v1/token", [("grant_type", "authorization_code")])
            #expect(none.status == .unauthorized)
            #expect(try none.object()["error"] as? String == "invalid_client")

            let basic = "Basic " + Data("0oaconfidential00000:s3cret".utf8).base64EncodedString()
            let both = try await api.postForm(
                "/oauth2/default/v1/token", [("grant_type", "authorization_code"), ("client_secret", "s3cret")],
                headers: [.authorization: basic])
            #expect(both.status == .badRequest)
            #expect(try both.object()["error"] as? String == "invalid_request")
            #expect((try both.object()["error_description"] as? String)?.hasPrefix("Cannot supply multiple client credentials") == true)

            let wrongSecret = try await api.postForm(
                "/oauth2/default/v1/token", [("grant_type", "authorization_code"), ("code", "x")],
                headers: [.authorization: "Basic " + Data("0oaconfidential00000:wrong".utf8).base64EncodedString()])
            #expect(wrongSecret.status == .unauthorized)

            let unsupported = try await api.postForm(
                "/oauth2/default/v1/token", [("grant_type", "implicit"), ("client_id", "0oaidflowsandbox0000")])
            #expect(unsupported.status == .badRequest)
            #expect(try unsupported.object()["error"] as? String == "unsupported_grant_type")
        }
    }

    @Test("a confidential client may skip PKCE and authenticate with client_secret_basic")
    func confidentialClient() async throws {
        try await withSandbox(configure: {
            $0.confidentialClientId = "0oaconfidential00000"
            $0.confidentialClientSecret = "s3cret"
        }) { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "conf@example.com")
            let reply = try await api.authorize(
                api.authorizePath(
                    pkce: PKCEPair(), sessionToken: sessionToken,
                    overrides: ["client_id": "0oaconfidential00000", "code_challenge": nil, "code_challenge_method": nil]))
            let code = try #require(try api.redirectTarget(reply).parameters["code"])
            let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SandboxClient.redirectURI)]

            // The public client cannot redeem the confidential client's code (and the attempt spends it).
            let stolen = try await api.postForm("/oauth2/default/v1/token", form + [("client_id", "0oaidflowsandbox0000")])
            #expect(try stolen.object()["error"] as? String == "invalid_grant")

            let (_, secondToken) = try await api.registerActiveUser(email: "conf2@example.com")
            let second = try await api.authorize(
                api.authorizePath(
                    pkce: PKCEPair(), sessionToken: secondToken,
                    overrides: ["client_id": "0oaconfidential00000", "code_challenge": nil, "code_challenge_method": nil]))
            let secondCode = try #require(try api.redirectTarget(second).parameters["code"])
            let tokens = try await api.postForm(
                "/oauth2/default/v1/token",
                [("grant_type", "authorization_code"), ("code", secondCode), ("redirect_uri", SandboxClient.redirectURI)],
                headers: [.authorization: "Basic " + Data("0oaconfidential00000:s3cret".utf8).base64EncodedString()])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.object()["access_token"] is String)
        }
    }

    // MARK: Refresh

    @Test("refresh rotates: each use returns a new refresh token; the old one works only within the grace period")
    func rotationWithinGrace() async throws {
        // A frozen clock: the 20 s below must stay inside the 30 s grace however slowly the machine runs.
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            let tokens = try await api.signInWithPKCE(email: "rot@example.com")
            let original = try #require(tokens["refresh_token"] as? String)
            let first = try await api.refresh(original)
            #expect(first.status == .ok)
            let rotated = try #require(try first.object()["refresh_token"] as? String)
            #expect(rotated != original)
            #expect(try first.object()["id_token"] is String)

            // Within the grace period (a lost response, a concurrent refresh) the old one still works.
            try await api.advanceClock(seconds: 20)
            let retry = try await api.refresh(original)
            #expect(retry.status == .ok)
            let retried = try #require(try retry.object()["refresh_token"] as? String)
            #expect(retried != rotated)
            #expect(try await api.refresh(rotated).status == .ok)
        }
    }

    @Test("reusing a rotated refresh token after the grace period revokes the whole family")
    func reuseAfterGrace() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "theft@example.com")
            let original = try #require(tokens["refresh_token"] as? String)
            let firstAccess = try #require(tokens["access_token"] as? String)
            let rotatedBody = try await api.refresh(original).object()
            let rotated = try #require(rotatedBody["refresh_token"] as? String)
            let rotatedAccess = try #require(rotatedBody["access_token"] as? String)

            try await api.advanceClock(seconds: 31)
            let reuse = try await api.refresh(original)
            #expect(reuse.status == .badRequest)
            #expect(try reuse.object()["error"] as? String == "invalid_grant")
            #expect(try reuse.object()["error_description"] as? String == "The refresh token is invalid or expired.")

            #expect(try await api.refresh(rotated).status == .badRequest, "the newest refresh token is revoked too")
            #expect(try await api.introspect(firstAccess)["active"] as? Bool == false)
            #expect(try await api.introspect(rotatedAccess)["active"] as? Bool == false)
            #expect(try await api.userInfo(rotatedAccess).status == .unauthorized)
        }
    }

    @Test("the grace period is configurable")
    func configurableGrace() async throws {
        try await withSandbox(configure: { $0.refreshTokenGraceSeconds = 0 }) { api in
            let original = try #require(try await api.signInWithPKCE(email: "nograce@example.com")["refresh_token"] as? String)
            #expect(try await api.refresh(original).status == .ok)
            try await api.advanceClock(seconds: 1)
            #expect(try await api.refresh(original).status == .badRequest)
        }
    }

    @Test("a refresh may narrow the scopes but not widen them")
    func refreshScopes() async throws {
        try await withSandbox { api in
            let original = try #require(
                try await api.signInWithPKCE(email: "scope@example.com", scope: "openid profile offline_access")["refresh_token"] as? String
            )
            let narrower = try await api.refresh(original, scope: "openid offline_access")
            #expect(narrower.status == .ok)
            #expect(try narrower.object()["scope"] as? String == "openid offline_access")
            let next = try #require(try narrower.object()["refresh_token"] as? String)
            let wider = try await api.refresh(next, scope: "openid email offline_access")
            #expect(wider.status == .badRequest)
            #expect(try wider.object()["error"] as? String == "invalid_scope")
        }
    }

    @Test("a refresh narrowed to leave out offline_access gets no refresh token and keeps the old one unrotated")
    func narrowedRefreshKeepsToken() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "narrow@example.com", scope: "openid profile offline_access")
            let original = try #require(tokens["refresh_token"] as? String)
            let firstAccess = try #require(tokens["access_token"] as? String)

            let narrowed = try await api.refresh(original, scope: "openid profile")
            #expect(narrowed.status == .ok, "\(narrowed.text)")
            let body = try narrowed.object()
            #expect(body["refresh_token"] == nil)
            #expect(body["access_token"] is String)
            #expect(body["id_token"] is String)
            #expect(body["scope"] as? String == "openid profile")
            let narrowedAccess = try #require(body["access_token"] as? String)

            // Well past the grace period: had the token been rotated, this would be reuse and revoke the family.
            try await api.advanceClock(seconds: 120)
            let again = try await api.refresh(original, scope: "openid")
            #expect(again.status == .ok, "\(again.text)")
            #expect(try again.object()["id_token"] is String)
            let full = try await api.refresh(original)
            #expect(full.status == .ok, "\(full.text)")
            #expect(try full.object()["refresh_token"] is String, "the full scope still rotates")
            #expect(try await api.introspect(firstAccess)["active"] as? Bool == true, "the family was not revoked")
            #expect(try await api.introspect(narrowedAccess)["active"] as? Bool == true)

            let wider = try await api.refresh(try #require(try full.object()["refresh_token"] as? String), scope: "openid email")
            #expect(wider.status == .badRequest)
            #expect(try wider.object()["error"] as? String == "invalid_scope")
        }
    }

    @Test("an unknown or idle (7 days) refresh token is invalid_grant")
    func refreshExpiry() async throws {
        try await withSandbox { api in
            #expect(try await api.refresh("unknown").object()["error"] as? String == "invalid_grant")
            let token = try #require(try await api.signInWithPKCE(email: "idle@example.com")["refresh_token"] as? String)
            try await api.advanceClock(seconds: 7 * 24 * 3600 + 1)
            let idle = try await api.refresh(token)
            #expect(idle.status == .badRequest)
            #expect(try idle.object()["error"] as? String == "invalid_grant")
        }
    }

    @Test("deactivating a user kills their tokens")
    func deactivationRevokes() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "leaver@example.com")
            let user = try await api.send(.get, "/api/v1/users/leaver@example.com").object()
            _ = try await api.send(.post, "/api/v1/users/\(user["id"] as! String)/lifecycle/deactivate")
            #expect(try await api.introspect(tokens["access_token"] as! String)["active"] as? Bool == false)
            #expect(try await api.refresh(tokens["refresh_token"] as! String).status == .badRequest)
        }
    }

    @Test("a 429 on an OAuth endpoint uses Okta's E0000047 body, not the OAuth shape")
    func rateLimitedToken() async throws {
        // The window runs on the sandbox clock, frozen here: it cannot end between the requests, however slow.
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.rateLimits = ["oauth": 1]
        }) { api in
            _ = try await api.refresh("x")
            let limited = try await api.refresh("x")
            #expect(limited.status == .tooManyRequests)
            #expect(try limited.oktaError().code == "E0000047")
        }
    }
}

/// SHA-256 of a string's UTF-8, via swift-crypto (independent of the sandbox's own helper).
func sha256Digest(_ text: String) -> Data {
    Data(Crypto.SHA256.hash(data: Data(text.utf8)))
}
