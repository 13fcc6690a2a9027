import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

/// DPoP-bound user tokens at `/oauth2/default/v1/userinfo` and the protected resource, which requires a nonce
/// (the sandbox's choice, RFC 9449 §9).
@Suite("DPoP-bound user tokens at userinfo and the protected resource")
struct UserTokenDPoPTests {
    /// Signs a user in with the public client (in `dpopBoundAccessTokens`) and returns its DPoP-bound access token.
    static func boundToken(_ api: SandboxClient, key: TestClientKey, scope: String = "openid profile resource.admin") async throws -> String
    {
        let (_, sessionToken) = try await api.registerActiveUser(email: "bound-\(UUID().uuidString.prefix(6))@example.com")
        let pkce = PKCEPair()
        let code = try #require(
            try api.redirectTarget(
                try await api.authorize(api.authorizePath(pkce: pkce, scope: scope, sessionToken: sessionToken))
            ).parameters["code"])
        let url = await api.orgURL + "/oauth2/default/v1/token"
        let fields = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SandboxClient.redirectURI),
            ("code_verifier", pkce.verifier), ("client_id", "0oaidflowsandbox0000"),
        ]
        let challenge = try await api.postForm(
            "/oauth2/default/v1/token", fields, headers: [.dpop: try await key.proof(url: url, now: await api.now)])
        let nonce = try #require(challenge.header("dpop-nonce"))
        let reply = try await api.postForm(
            "/oauth2/default/v1/token", fields, headers: [.dpop: try await key.proof(url: url, now: await api.now, nonce: nonce)])
        #expect(reply.status == .ok, "\(reply.text)")
        return try #require(try reply.object()["access_token"] as? String)
    }

    @Test("userinfo takes a bound token with the DPoP scheme and a proof, and refuses it as Bearer or with a bad proof")
    func userInfo() async throws {
        let key = try await TestClientKey.p256()
        let other = try await TestClientKey.p256()
        try await withSandbox(configure: { $0.dpopBoundAccessTokens = ["0oaidflowsandbox0000"] }) { api in
            let token = try await Self.boundToken(api, key: key)
            let url = await api.orgURL + "/oauth2/default/v1/userinfo"
            let good = try await api.send(
                .get, "/oauth2/default/v1/userinfo",
                headers: [.dpop: try await key.proof(method: "GET", url: url, now: await api.now, accessToken: token)],
                auth: .header("DPoP \(token)"))
            #expect(good.status == .ok, "\(good.text)")
            #expect(try good.object()["sub"] != nil)

            let asBearer = try await api.userInfo(token)
            #expect(asBearer.status == .badRequest)
            #expect(
                try asBearer.challenge().parameters["error_description"]
                    == "The resource request must use the DPoP authentication scheme when using a DPoP bound token.")

            let wrongKey = try await api.send(
                .get, "/oauth2/default/v1/userinfo",
                headers: [.dpop: try await other.proof(method: "GET", url: url, now: await api.now, accessToken: token)],
                auth: .header("DPoP \(token)"))
            let (scheme, parameters) = try wrongKey.challenge()
            #expect(scheme == "DPoP")
            #expect(parameters["error"] == "invalid_dpop_proof")
            #expect(parameters["error_description"] == "The access_token is not bound to the provided DPoP proof.")
            #expect(parameters["scope"] == "openid")
            #expect(parameters["resource"] == "/oauth2/default/v1/userinfo")
        }
    }

    @Test("the protected resource asks for a nonce first (401 use_dpop_nonce, DPoP-Nonce), then answers")
    func resourceNonce() async throws {
        let key = try await TestClientKey.rsa()
        try await withSandbox(configure: { $0.dpopBoundAccessTokens = ["0oaidflowsandbox0000"] }) { api in
            let token = try await Self.boundToken(api, key: key)
            let url = await api.orgURL + "/resource/admin"
            let first = try await api.send(
                .get, "/resource/admin",
                headers: [.dpop: try await key.proof(method: "GET", url: url, now: await api.now, accessToken: token)],
                auth: .header("DPoP \(token)"))
            #expect(first.status == .unauthorized)
            let (scheme, parameters) = try first.challenge()
            #expect(scheme == "DPoP")
            #expect(parameters["error"] == "use_dpop_nonce")
            #expect(parameters["error_description"] == "Resource server requires nonce in DPoP proof")
            let nonce = try #require(first.header("DPoP-Nonce"))

            let second = try await api.send(
                .get, "/resource/admin",
                headers: [.dpop: try await key.proof(method: "GET", url: url, now: await api.now, nonce: nonce, accessToken: token)],
                auth: .header("DPoP \(token)"))
            #expect(second.status == .ok, "\(second.text)")
            #expect(try second.object()["scopes"] as? [String] == ["openid", "profile", "resource.admin"])

            let asBearer = try await api.send(.get, "/resource/admin", auth: .header("Bearer \(token)"))
            #expect(asBearer.status == .unauthorized)
            #expect(try asBearer.challenge().scheme == "DPoP")
        }
    }
}
