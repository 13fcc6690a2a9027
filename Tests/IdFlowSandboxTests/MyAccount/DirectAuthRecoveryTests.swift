import Foundation
import HTTPTypes
import Testing

@testable import IdFlowSandbox

/// Direct Authentication's recovery intent (direct-auth.md §9.1): a factor other than the password gives a token with
/// the one scope `okta.myAccount.password.manage`, which sets a new password at MyAccount.
@Suite("direct auth: recovery intent")
struct DirectAuthRecoveryTests {
    static let scope = "okta.myAccount.password.manage"

    static func recovering(_ configuration: inout SandboxConfiguration) {
        configuration.freezeClock = true
        configuration.passwordPolicy.recovery.authenticators = [.email, .phone, .oktaVerify]
    }

    @Test("intent=recovery with Okta Verify's code: a token with scp [okta.myAccount.password.manage] and no ID token")
    func recoveryToken() async throws {
        try await withSandbox(configure: Self.recovering) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let reply = try await api.directToken(
                SandboxClient.otpGrant,
                [("login_hint", "ada@example.com"), ("otp", try await api.totpCode(device)), ("scope", Self.scope), ("intent", "recovery")])
            #expect(reply.status == .ok, "\(reply.text)")
            let body = try reply.object()
            #expect(body["scope"] as? String == Self.scope)
            #expect(body["id_token"] == nil)
            let access = try #require(body["access_token"] as? String)
            #expect(try jwtClaims(access)["scp"] as? [String] == [Self.scope])

            let put = try await api.send(
                .put, "/idp/myaccount/password", json: ["profile": ["password": "Battery-Staple-42"]],
                headers: MyAccountPasswordTests.accept, auth: api.bearer(access))
            #expect(put.status == .ok, "\(put.text)")
            #expect(try await api.passwordGrant("ada@example.com", password: "Battery-Staple-42").status == .forbidden, "mfa_required")
        }
    }

    @Test("prompt=recover_authenticator is the same intent; the scope must be exactly the password's")
    func scopeAndIntent() async throws {
        try await withSandbox(configure: Self.recovering) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let code = try await api.totpCode(device)
            let base = [("login_hint", "ada@example.com"), ("otp", code)]
            try await api.directToken(SandboxClient.otpGrant, base + [("scope", "openid \(Self.scope)"), ("intent", "recovery")])
                .expectDirectAuthError(
                    .badRequest, "invalid_scope",
                    "scope 'openid okta.myAccount.password.manage' cannot be requested with intent 'recovery'.")
            try await api.directToken(SandboxClient.otpGrant, base + [("scope", "openid"), ("prompt", "recover_authenticator")])
                .expectDirectAuthError(.badRequest, "invalid_scope", "scope 'openid' cannot be requested with intent 'recovery'.")
            try await api.directToken(SandboxClient.otpGrant, base + [("scope", Self.scope), ("intent", "unlock")])
                .expectDirectAuthError(.badRequest, "invalid_request", "'unlock' is an invalid intent.")
            let kotlin = try await api.directToken(
                SandboxClient.otpGrant, base + [("scope", Self.scope), ("prompt", "recover_authenticator")])
            #expect(kotlin.status == .ok, "\(kotlin.text)")
        }
    }

    @Test("the password grant cannot recover; nor a factor the recovery policy does not name")
    func refusedFactors() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let refused = "Authenticators required by recovery policy are not enabled authenticators."
            try await api.directToken(
                "password",
                [
                    ("username", "ada@example.com"), ("password", SandboxClient.directAuthPassword), ("scope", Self.scope),
                    ("intent", "recovery"),
                ]
            ).expectDirectAuthError(.forbidden, "access_denied", refused)
            // The default recovery policy names e-mail and phone, not Okta Verify.
            try await api.directToken(
                SandboxClient.otpGrant,
                [("login_hint", "ada@example.com"), ("otp", try await api.totpCode(device)), ("scope", Self.scope), ("intent", "recovery")]
            ).expectDirectAuthError(.forbidden, "access_denied", refused)
            let push = try await api.postForm(
                "/oauth2/default/v1/primary-authenticate",
                [
                    ("client_id", SandboxClient.directAuthClient), ("login_hint", "ada@example.com"),
                    ("challenge_hint", SandboxClient.oobGrant),
                    ("channel_hint", "push"), ("intent", "recovery"),
                ])
            try push.expectDirectAuthError(.forbidden, "access_denied", refused)
        }
    }

    @Test("a locked-out user recovers with a push and is ACTIVE with the new password")
    func lockedOutRecovers() async throws {
        try await withSandbox(configure: Self.recovering) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let user = try await api.send(.get, "/api/v1/users/ada@example.com").object()
            let userId = try #require(user["id"] as? String)
            for _ in 0..<10 { _ = try await api.passwordGrant("ada@example.com", password: "Wrong-Password-0") }
            #expect(try await api.send(.get, "/api/v1/users/\(userId)").object()["status"] as? String == "LOCKED_OUT")

            let start = try await api.postForm(
                "/oauth2/default/v1/primary-authenticate",
                [
                    ("client_id", SandboxClient.directAuthClient), ("login_hint", "ada@example.com"),
                    ("challenge_hint", SandboxClient.oobGrant),
                    ("channel_hint", "push"), ("intent", "recovery"),
                ])
            #expect(start.status == .ok, "\(start.text)")
            let oobCode = try #require(try start.object()["oob_code"] as? String)
            #expect(try await api.answerPush(device).status == .ok)
            let tokens = try await api.directToken(
                SandboxClient.oobGrant, [("oob_code", oobCode), ("scope", Self.scope), ("intent", "recovery")])
            #expect(tokens.status == .ok, "\(tokens.text)")
            let access = try #require(try tokens.object()["access_token"] as? String)
            let put = try await api.send(
                .put, "/idp/myaccount/password", json: ["profile": ["password": "Battery-Staple-42"]],
                headers: MyAccountPasswordTests.accept, auth: api.bearer(access))
            #expect(put.status == .ok, "\(put.text)")
            #expect(try await api.send(.get, "/api/v1/users/\(userId)").object()["status"] as? String == "ACTIVE")
        }
    }
}
