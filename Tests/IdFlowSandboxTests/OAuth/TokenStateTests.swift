import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("/v1/introspect, /v1/revoke, /v1/userinfo, /v1/logout")
struct TokenStateTests {
    // MARK: Introspect

    @Test("introspecting an access token and a refresh token")
    func introspectActive() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "intro@example.com")
            let access = try await api.introspect(try #require(tokens["access_token"] as? String))
            #expect(
                Set(access.keys)
                    == ["active", "token_type", "scope", "client_id", "username", "exp", "iat", "sub", "aud", "iss", "jti", "uid"])
            #expect(access["active"] as? Bool == true)
            #expect(access["token_type"] as? String == "Bearer")
            #expect(access["scope"] as? String == "openid profile email offline_access")
            #expect(access["username"] as? String == "intro@example.com")
            #expect(access["client_id"] as? String == "0oaidflowsandbox0000")

            let refresh = try await api.introspect(try #require(tokens["refresh_token"] as? String))
            #expect(Set(refresh.keys) == ["active", "token_type", "scope", "client_id", "username", "exp", "sub", "uid"])
            #expect(refresh["active"] as? Bool == true)
        }
    }

    @Test("garbage, and a missing token parameter")
    func introspectInvalid() async throws {
        try await withSandbox { api in
            let garbage = try await api.introspect("not.a.token")
            #expect(garbage.count == 1 && garbage["active"] as? Bool == false)
            let missing = try await api.postForm("/oauth2/default/v1/introspect", [("client_id", "0oaidflowsandbox0000")])
            #expect(missing.status == .badRequest)
            #expect(try missing.object()["error"] as? String == "invalid_request")
            #expect(try missing.object()["error_description"] as? String == "The `token` parameter is required.")
            let noClient = try await api.postForm("/oauth2/default/v1/introspect", [("token", "x")])
            #expect(noClient.status == .unauthorized)
        }
    }

    @Test("an access token expires by the sandbox clock")
    func accessTokenExpiry() async throws {
        try await withSandbox { api in
            let accessToken = try #require(try await api.signInWithPKCE(email: "exp@example.com")["access_token"] as? String)
            try await api.advanceClock(seconds: 3540)
            #expect(try await api.introspect(accessToken)["active"] as? Bool == true)
            #expect(try await api.userInfo(accessToken).status == .ok)
            try await api.advanceClock(seconds: 61)
            #expect(try await api.introspect(accessToken)["active"] as? Bool == false)
            #expect(try await api.userInfo(accessToken).status == .unauthorized)
        }
    }

    // MARK: Revoke

    @Test("revoking an access token: 200, empty body, inactive afterwards; the refresh token still works")
    func revokeAccessToken() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "rev@example.com")
            let accessToken = try #require(tokens["access_token"] as? String)
            let reply = try await api.postForm(
                "/oauth2/default/v1/revoke",
                [("token", accessToken), ("token_type_hint", "access_token"), ("client_id", "0oaidflowsandbox0000")])
            #expect(reply.status == .ok)
            #expect(reply.text.isEmpty)
            #expect(try await api.introspect(accessToken)["active"] as? Bool == false)
            #expect(try await api.refresh(try #require(tokens["refresh_token"] as? String)).status == .ok)
        }
    }

    @Test("revoking a refresh token revokes its family; unknown tokens are fine; a missing token is not")
    func revokeRefreshToken() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "revfam@example.com")
            let refreshToken = try #require(tokens["refresh_token"] as? String)
            let accessToken = try #require(tokens["access_token"] as? String)
            let reply = try await api.postForm(
                "/oauth2/default/v1/revoke", [("token", refreshToken), ("client_id", "0oaidflowsandbox0000")])
            #expect(reply.status == .ok)
            #expect(try await api.refresh(refreshToken).status == .badRequest)
            #expect(try await api.introspect(accessToken)["active"] as? Bool == false)

            let unknown = try await api.postForm(
                "/oauth2/default/v1/revoke", [("token", "whatever"), ("client_id", "0oaidflowsandbox0000")])
            #expect(unknown.status == .ok)
            #expect(unknown.text.isEmpty)
            let missing = try await api.postForm("/oauth2/default/v1/revoke", [("client_id", "0oaidflowsandbox0000")])
            #expect(missing.status == .badRequest)
            #expect(try missing.object()["error"] as? String == "invalid_request")
        }
    }

    // MARK: Userinfo

    @Test("userinfo returns claims by scope, over GET and POST")
    func userInfoClaims() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "who@example.com")
            let accessToken = try #require(tokens["access_token"] as? String)
            let reply = try await api.userInfo(accessToken)
            #expect(reply.status == .ok)
            let claims = try reply.object()
            let user = try await api.send(.get, "/api/v1/users/who@example.com").object()
            #expect(claims["sub"] as? String == user["id"] as? String)
            #expect(claims["name"] as? String == "Ada Lovelace")
            #expect(claims["given_name"] as? String == "Ada")
            #expect(claims["family_name"] as? String == "Lovelace")
            #expect(claims["preferred_username"] as? String == "who@example.com")
            #expect(claims["email"] as? String == "who@example.com")
            #expect(claims["email_verified"] as? Bool == true)
            #expect(claims["updated_at"] is Int)

            let post = try await api.send(
                .post, "/oauth2/default/v1/userinfo", headers: [.authorization: "Bearer \(accessToken)"], auth: .none)
            #expect(post.status == .ok)

            let minimal = try #require(try await api.signInWithPKCE(email: "min@example.com", scope: "openid")["access_token"] as? String)
            let few = try await api.userInfo(minimal).object()
            #expect(Set(few.keys) == ["sub"])
        }
    }

    @Test("an invalid bearer token is 401 with WWW-Authenticate")
    func userInfoInvalid() async throws {
        try await withSandbox { api in
            for header in ["Bearer nope", "Basic abc", nil] as [String?] {
                var headers = HTTPFields()
                if let header { headers[.authorization] = header }
                let reply = try await api.send(.get, "/oauth2/default/v1/userinfo", headers: headers, auth: .none)
                #expect(reply.status == .unauthorized)
                #expect(
                    reply.header("WWW-Authenticate")
                        == #"Bearer error="invalid_token", error_description="The access token is invalid""#)
                #expect(try reply.object()["error"] as? String == "invalid_token")
            }
        }
    }

    // MARK: Logout

    @Test("logout ends the browser session and redirects to the post-logout URI with state")
    func logout() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "bye@example.com")
            let pkce = PKCEPair()
            let signedIn = try await api.authorize(api.authorizePath(pkce: pkce, sessionToken: sessionToken))
            let cookie = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
            let code = try #require(try api.redirectTarget(signedIn).parameters["code"])
            let idToken = try #require(try await api.exchange(code: code, pkce: pkce).object()["id_token"] as? String)

            var headers = HTTPFields()
            headers[.cookie] = cookie
            let reply = try await api.send(
                .get,
                "/oauth2/default/v1/logout?id_token_hint=\(idToken)&post_logout_redirect_uri="
                    + formEscape("http://127.0.0.1:4000/callback") + "&state=after",
                headers: headers, auth: .none)
            #expect(reply.status == .found)
            #expect(reply.header("Location") == "http://127.0.0.1:4000/callback?state=after")
            #expect(reply.header("Set-Cookie")?.contains("Max-Age=0") == true)

            let silent = try await api.authorize(api.authorizePath(pkce: PKCEPair(), overrides: ["prompt": "none"]), cookie: cookie)
            #expect(try api.redirectTarget(silent).parameters["error"] == "login_required")

            // Without a post-logout URI the browser goes to the org; an expired hint is still accepted.
            try await api.advanceClock(seconds: 7200)
            let plain = try await api.send(.get, "/oauth2/default/v1/logout?id_token_hint=\(idToken)", auth: .none)
            #expect(plain.header("Location") == "\(await api.state.orgURL)/")
        }
    }

    @Test("logout needs a valid id_token_hint and a registered post-logout URI")
    func logoutErrors() async throws {
        try await withSandbox { api in
            #expect(try await api.send(.get, "/oauth2/default/v1/logout", auth: .none).status == .badRequest)
            let forged = try await api.send(.get, "/oauth2/default/v1/logout?id_token_hint=a.b.c", auth: .none)
            #expect(forged.status == .badRequest)
            #expect(forged.header("Location") == nil)

            let idToken = try #require(try await api.signInWithPKCE(email: "hint@example.com")["id_token"] as? String)
            let foreign = try await api.send(
                .get,
                "/oauth2/default/v1/logout?id_token_hint=\(idToken)&post_logout_redirect_uri="
                    + formEscape("https://evil.example/"), auth: .none)
            #expect(foreign.status == .badRequest)
            // A default-AS ID token is not a hint for the org AS.
            let otherServer = try await api.send(.get, "/oauth2/v1/logout?id_token_hint=\(idToken)", auth: .none)
            #expect(otherServer.status == .badRequest)
        }
    }
}
