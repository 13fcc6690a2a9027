import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

/// DPoP at `/v1/token` (okta-core.md §H3, §H4, RFC 9449): the nonce exchange, `cnf.jkt`, and each refusal.
@Suite("DPoP at the token endpoint")
struct TokenEndpointDPoPTests {
    static let clientId = ClientCredentialsTests.clientId

    /// Runs the recorded exchange: a proof without nonce → 400 use_dpop_nonce + dpop-nonce, then a new proof and
    /// a new assertion with the nonce → 200 DPoP. Returns the token response and the nonce.
    static func dpopToken(_ api: SandboxClient, client: TestClientKey, proofKey: TestClientKey) async throws -> ([String: Any], String) {
        let url = await api.orgURL + "/oauth2/v1/token"
        let first = try await api.clientCredentials(
            assertion: try await client.assertion(clientId: clientId, audience: url, now: await api.now),
            proof: try await proofKey.proof(url: url, now: await api.now))
        #expect(first.status == .badRequest)
        let recorded = try Fixtures.object("okta-oauth-service/token-error-use-dpop-nonce.json")
        #expect(try first.oauthError().error == recorded["error"] as? String)
        #expect(try first.oauthError().description == recorded["error_description"] as? String)
        let nonce = try #require(first.header("dpop-nonce"))
        #expect(nonce.count == 32)
        let second = try await api.clientCredentials(
            assertion: try await client.assertion(clientId: clientId, audience: url, now: await api.now),
            proof: try await proofKey.proof(url: url, now: await api.now, nonce: nonce))
        #expect(second.status == .ok, "\(second.text)")
        return (try second.object(), nonce)
    }

    @Test("the nonce exchange as recorded, then a DPoP token whose cnf.jkt is the proof key's thumbprint")
    func nonceExchange() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.p256()
        try await ClientCredentialsTests.withServiceApp(client, requireDPoP: true) { api in
            let (body, nonce) = try await Self.dpopToken(api, client: client, proofKey: proofKey)
            let recorded = try Fixtures.object("okta-oauth-service/token-client-credentials-dpop.json")
            #expect(Set(body.keys) == Set(recorded.keys))
            #expect(body["token_type"] as? String == "DPoP")
            let token = try #require(body["access_token"] as? String)
            let claims = try await api.servedKeys(base: "/oauth2/v1").verify(token, as: TestAccessClaims.self)
            #expect(claims.cnf?.jkt == proofKey.thumbprint)

            // A later request with the stored nonce is answered at once (PY-cas test_token_expiry_and_refresh).
            let url = await api.orgURL + "/oauth2/v1/token"
            let again = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now),
                proof: try await proofKey.proof(url: url, now: await api.now, nonce: nonce))
            #expect(again.status == .ok)

            // After a rotation the previous nonce still works; two rotations later it is challenged again.
            await api.state.advanceClock(bySeconds: 24 * 3600 + 1)
            let afterOne = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now),
                proof: try await proofKey.proof(url: url, now: await api.now, nonce: nonce))
            #expect(afterOne.status == .ok, "\(afterOne.text)")
            await api.state.advanceClock(bySeconds: 24 * 3600 + 1)
            let afterTwo = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now),
                proof: try await proofKey.proof(url: url, now: await api.now, nonce: nonce))
            #expect(try afterTwo.oauthError().error == "use_dpop_nonce")
            #expect(afterTwo.header("dpop-nonce") != nonce)
        }
    }

    @Test("an app that requires DPoP refuses a request without a proof, as recorded")
    func missingProof() async throws {
        let client = try await TestClientKey.rsa()
        try await ClientCredentialsTests.withServiceApp(client, requireDPoP: true) { api in
            let reply = try await api.clientCredentials(
                assertion: try await client.assertion(
                    clientId: Self.clientId, audience: await api.orgURL + "/oauth2/v1/token", now: await api.now))
            let recorded = try Fixtures.object("okta-oauth-service/token-error-invalid-dpop-proof-missing-header.json")
            #expect(reply.status == .badRequest)
            #expect(try reply.oauthError().error == recorded["error"] as? String)
            #expect(try reply.oauthError().description == recorded["error_description"] as? String)
        }
    }

    @Test("an app that does not require DPoP ignores a proof and answers Bearer")
    func proofIgnored() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.p256()
        try await ClientCredentialsTests.withServiceApp(client) { api in
            let url = await api.orgURL + "/oauth2/v1/token"
            let reply = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now),
                proof: try await proofKey.proof(url: url, now: await api.now))
            #expect(reply.status == .ok)
            #expect(try reply.object()["token_type"] as? String == "Bearer")
        }
    }

    @Test("each bad proof is 400 invalid_dpop_proof with Okta's description; a replayed proof too")
    func badProofs() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.rsa()
        try await ClientCredentialsTests.withServiceApp(client, requireDPoP: true) { api in
            let (_, nonce) = try await Self.dpopToken(api, client: client, proofKey: proofKey)
            let url = await api.orgURL + "/oauth2/v1/token"
            let now = await api.now
            var privateJWK = proofKey.jwk
            privateJWK["d"] = "AQAB"
            let cases: [(String, String)] = [
                (
                    try await proofKey.proof(url: url, now: now, nonce: nonce, type: "JWT"),
                    "'typ' must be 'dpop+jwt' in the DPoP proof JWT."
                ),
                (
                    try await proofKey.proof(method: "GET", url: url, now: now, nonce: nonce),
                    "'htm' claim in the DPoP proof JWT is invalid."
                ),
                (try await proofKey.proof(url: url + "x", now: now, nonce: nonce), "'htu' claim in the DPoP proof JWT is invalid."),
                (
                    try await proofKey.proof(url: url, now: now.addingTimeInterval(-301), nonce: nonce),
                    "The DPoP proof JWT is issued more than five minutes in the past."
                ),
                (
                    try await proofKey.proof(url: url, now: now.addingTimeInterval(600), nonce: nonce),
                    "The DPoP proof JWT is issued in the future."
                ),
                (
                    try await proofKey.proof(url: url, now: now, nonce: nonce, publicJWK: (try await TestClientKey.rsa()).jwk),
                    "The DPoP proof JWT signature is invalid."
                ),
                (try await proofKey.proof(url: url, now: now, nonce: nonce, publicJWK: privateJWK), "The DPoP proof JWT is invalid."),
                ("garbage", "The DPoP proof JWT cannot be parsed."),
            ]
            for (proof, description) in cases {
                let reply = try await api.clientCredentials(
                    assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now), proof: proof)
                try reply.expectCatalogued(.badRequest, "invalid_dpop_proof")
                #expect(try reply.oauthError().description == description)
            }
            var twoHeaders: HTTPFields = [:]
            for _ in 0..<2 { twoHeaders.append(HTTPField(name: .dpop, value: try await proofKey.proof(url: url, now: now, nonce: nonce))) }
            let fields = [
                ("grant_type", "client_credentials"), ("scope", "okta.users.read"),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now)),
            ]
            let multiple = try await api.postForm("/oauth2/v1/token", fields, headers: twoHeaders)
            try multiple.expectCatalogued(.badRequest, "invalid_dpop_proof")
            #expect(try multiple.oauthError().description == "Multiple DPoP proof JWT headers are not allowed.")
            // A query string is not part of htu (RFC 9449 §4.3).
            let withQuery = try await proofKey.proof(url: url + "?a=b", now: now, nonce: nonce)
            let good = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now), proof: withQuery)
            #expect(good.status == .ok, "\(good.text)")
            let replay = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: Self.clientId, audience: url, now: await api.now), proof: withQuery)
            try replay.expectCatalogued(.badRequest, "invalid_dpop_proof")
            #expect(try replay.oauthError().description == "The DPoP proof JWT has already been used.")
        }
    }

    @Test("a client in dpopBoundAccessTokens: code flow and refresh bound to one key, another key refused")
    func userTokensBound() async throws {
        let proofKey = try await TestClientKey.p256()
        let otherKey = try await TestClientKey.p256()
        try await withSandbox(configure: { $0.dpopBoundAccessTokens = ["0oaidflowsandbox0000"] }) { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "dpop@example.com")
            let pkce = PKCEPair()
            let code = try #require(
                try api.redirectTarget(
                    try await api.authorize(api.authorizePath(pkce: pkce, sessionToken: sessionToken))
                ).parameters["code"])
            let url = await api.orgURL + "/oauth2/default/v1/token"
            let fields = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SandboxClient.redirectURI),
                ("code_verifier", pkce.verifier), ("client_id", "0oaidflowsandbox0000"),
            ]
            let withoutProof = try await api.postForm("/oauth2/default/v1/token", fields)
            #expect(try withoutProof.oauthError().description == "The DPoP proof JWT header is missing.")
            let challenge = try await api.postForm(
                "/oauth2/default/v1/token", fields, headers: [.dpop: try await proofKey.proof(url: url, now: await api.now)])
            let nonce = try #require(challenge.header("dpop-nonce"))
            let reply = try await api.postForm(
                "/oauth2/default/v1/token", fields,
                headers: [.dpop: try await proofKey.proof(url: url, now: await api.now, nonce: nonce)])
            #expect(reply.status == .ok, "\(reply.text)")
            let body = try reply.object()
            #expect(body["token_type"] as? String == "DPoP")
            let claims = try await api.servedKeys().verify(try #require(body["access_token"] as? String), as: TestAccessClaims.self)
            #expect(claims.cnf?.jkt == proofKey.thumbprint)
            let refreshToken = try #require(body["refresh_token"] as? String)

            let refreshFields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "0oaidflowsandbox0000")]
            let stolen = try await api.postForm(
                "/oauth2/default/v1/token", refreshFields,
                headers: [.dpop: try await otherKey.proof(url: url, now: await api.now, nonce: nonce)])
            try stolen.expectCatalogued(.badRequest, "invalid_dpop_proof")
            #expect(try stolen.oauthError().description == "Invalid DPoP Public Key binding in refresh token")
            let refreshed = try await api.postForm(
                "/oauth2/default/v1/token", refreshFields,
                headers: [.dpop: try await proofKey.proof(url: url, now: await api.now, nonce: nonce)])
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            #expect(try refreshed.object()["token_type"] as? String == "DPoP")
        }
    }
}

extension HTTPField.Name {
    static let dpop = Self("DPoP")!
}
