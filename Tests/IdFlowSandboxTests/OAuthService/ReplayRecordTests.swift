import Foundation
import HTTPTypes
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// Issue 36 items 11 and 12: what the replay checks store is bounded and visible. A proof's `jti` has a length cap,
/// is recorded only once its grant has succeeded, and is counted in `/sandbox/records`; an assertion without a
/// `jti` is single-use too.
@Suite("DPoP and client-assertion replay records")
struct ReplayRecordTests {
    static let publicClient = "0oaidflowsandbox0000"

    /// `/sandbox/records`' count of `kind`.
    static func count(_ api: SandboxClient, _ kind: String) async throws -> Int? {
        try await api.send(.get, "/sandbox/records").object()[kind] as? Int
    }

    @Test("a jti over 256 bytes is 400 invalid_dpop_proof 'jti', and nothing is stored")
    func overlongIdentifier() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.p256()
        try await ClientCredentialsTests.withServiceApp(client, requireDPoP: true) { api in
            let nonce = try await ForgedHostTests.nonce(api, client: client, proofKey: proofKey)
            let url = await api.orgURL + "/oauth2/v1/token"
            let assertion = { try await client.assertion(clientId: ClientCredentialsTests.clientId, audience: url, now: await api.now) }
            let long = try await api.clientCredentials(
                assertion: try await assertion(),
                proof: try await proofKey.proof(url: url, now: await api.now, nonce: nonce, jti: String(repeating: "j", count: 257)))
            #expect(long.status == .badRequest, "\(long.text)")
            #expect(try long.oauthError().error == "invalid_dpop_proof")
            #expect(try long.oauthError().description == "'jti' claim in the DPoP proof JWT is invalid.")
            #expect(try await Self.count(api, "usedDPoPProofIDs") == 0)

            let longest = try await api.clientCredentials(
                assertion: try await assertion(),
                proof: try await proofKey.proof(url: url, now: await api.now, nonce: nonce, jti: String(repeating: "j", count: 256)))
            #expect(longest.status == .ok, "\(longest.text)")
            #expect(try await Self.count(api, "usedDPoPProofIDs") == 1)
            #expect(try await Self.count(api, "usedClientAssertionIDs") == 3, "the nonce request's, the refused one's and this one's")
        }
    }

    @Test("a proof that comes with a failing grant is not recorded, and still works with a good grant")
    func recordedAfterTheGrant() async throws {
        let proofKey = try await TestClientKey.p256()
        try await withSandbox(configure: { $0.dpopBoundAccessTokens = [Self.publicClient] }) { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "flood@example.com")
            let pkce = PKCEPair()
            let code = try #require(
                try api.redirectTarget(try await api.authorize(api.authorizePath(pkce: pkce, sessionToken: sessionToken))).parameters[
                    "code"])
            let url = await api.orgURL + "/oauth2/default/v1/token"
            func fields(_ code: String) -> [(String, String)] {
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SandboxClient.redirectURI),
                    ("code_verifier", pkce.verifier), ("client_id", Self.publicClient),
                ]
            }
            let challenge = try await api.postForm(
                "/oauth2/default/v1/token", fields(code), headers: [.dpop: try await proofKey.proof(url: url, now: await api.now)])
            let nonce = try #require(challenge.header("dpop-nonce"))
            let proof = try await proofKey.proof(url: url, now: await api.now, nonce: nonce)
            for _ in 0..<3 {
                let bad = try await api.postForm("/oauth2/default/v1/token", fields("not-a-code"), headers: [.dpop: proof])
                #expect(try bad.oauthError().error == "invalid_grant", "\(bad.text)")
            }
            #expect(try await Self.count(api, "usedDPoPProofIDs") == 0, "failed grants store no jti")

            let good = try await api.postForm("/oauth2/default/v1/token", fields(code), headers: [.dpop: proof])
            #expect(good.status == .ok, "\(good.text)")
            #expect(try await Self.count(api, "usedDPoPProofIDs") == 1)
            let replayed = try await api.postForm("/oauth2/default/v1/token", fields(code), headers: [.dpop: proof])
            #expect(try replayed.oauthError().description == "The DPoP proof JWT has already been used.")
        }
    }

    @Test("an assertion without jti is single-use: its replay is 401 invalid_client 'already been used'")
    func assertionWithoutIdentifier() async throws {
        let client = try await TestClientKey.rsa()
        try await ClientCredentialsTests.withServiceApp(client) { api in
            let assertion = try await client.assertion(
                clientId: ClientCredentialsTests.clientId, audience: await api.orgURL + "/oauth2/v1/token", now: await api.now, jti: nil)
            let first = try await api.clientCredentials(assertion: assertion)
            #expect(first.status == .ok, "\(first.text)")
            let replay = try await api.clientCredentials(assertion: assertion)
            try replay.expectCatalogued(.unauthorized, "invalid_client")
            #expect(try replay.oauthError().description == "The client_assertion token has already been used.")
            await api.state.advanceClock(bySeconds: 1)
            let fresh = try await client.assertion(
                clientId: ClientCredentialsTests.clientId, audience: await api.orgURL + "/oauth2/v1/token", now: await api.now, jti: nil)
            #expect(try await api.clientCredentials(assertion: fresh).status == .ok, "another assertion without jti is another assertion")
        }
    }
}
