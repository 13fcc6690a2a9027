import Foundation
import IdFlowSandbox
import Testing

@Suite("Sign-in sessions: sid")
struct SignInSessionTests {
    @Test("every login has its own session: the ID token's sid, kept by a refresh")
    func loginsHaveSessions() async throws {
        try await withSandbox { api in
            let first = try await api.signInWithPKCE(email: "sid1@example.com")
            let second = try await api.signInWithPKCE(email: "sid2@example.com")
            let sid = try #require(try idClaims(first)["sid"] as? String)
            let otherSid = try idClaims(second)["sid"] as? String
            #expect(sid.hasPrefix("idx") && sid.count == 25, "shaped like the recorded sid: \(sid)")
            #expect(otherSid != nil && otherSid != sid)
            let refreshed = try await api.refresh(try #require(first["refresh_token"] as? String))
            #expect(refreshed.status == .ok)
            let refreshedSid = try idClaims(try refreshed.object())["sid"] as? String
            #expect(refreshedSid == sid)
        }
    }

    @Test("a login without device_sso gets no device secret, ds_hash or introspected sid, as before")
    func plainLoginUnchanged() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "plain@example.com")
            #expect(tokens["device_secret"] == nil)
            #expect(try idClaims(tokens)["ds_hash"] == nil)
            let access = try await api.introspect(try #require(tokens["access_token"] as? String))
            #expect(access["active"] as? Bool == true && access["sid"] == nil)
        }
    }

    @Test("introspection shows the session of a Native SSO login's tokens and of its device secret, until it idles out")
    func introspectionAndClock() async throws {
        try await withSandbox { api in
            let (secret, idToken, tokens) = try await api.signInWithDeviceSSO(email: "intro-sid@example.com")
            let sid = try #require(try jwtClaims(idToken)["sid"] as? String)
            let access = try await api.introspect(try #require(tokens["access_token"] as? String))
            #expect(access["sid"] as? String == sid)
            let refresh = try await api.introspect(try #require(tokens["refresh_token"] as? String))
            #expect(refresh["sid"] as? String == sid)

            let reply = try await api.postForm(
                "/oauth2/default/v1/introspect",
                [("token", secret), ("token_type_hint", "device_secret"), ("client_id", "0oaidflowsandbox0000")])
            let body = try reply.object()
            #expect(Set(body.keys) == ["active", "sid", "token_type", "exp"])
            #expect(body["active"] as? Bool == true)
            #expect(body["sid"] as? String == sid)
            #expect(body["token_type"] as? String == deviceSecretType)

            // The session's idle lifetime is the refresh token's, 7 days, on the sandbox clock.
            try await api.advanceClock(seconds: 7 * 24 * 3600 + 1)
            #expect(try await api.introspect(secret)["active"] as? Bool == false)
        }
    }
}
