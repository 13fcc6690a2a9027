import Foundation
import HTTPTypes
import IdFlowSandbox
import Testing

/// Direct Authentication's tokens are DPoP-bound as every grant's are for a client in `dpopBoundAccessTokens`.
@Suite("direct auth: DPoP")
struct DirectAuthDPoPTests {
    @Test("the password grant with a DPoP proof (after the nonce exchange) gives a DPoP token bound to the proof key")
    func boundTokens() async throws {
        let proofKey = try await TestClientKey.p256()
        try await withSandbox(configure: { $0.dpopBoundAccessTokens = [SandboxClient.directAuthClient] }) { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            let url = await api.orgURL + "/oauth2/default/v1/token"
            let fields = [
                ("client_id", SandboxClient.directAuthClient), ("grant_type", "password"), ("username", "ada@example.com"),
                ("password", SandboxClient.directAuthPassword), ("scope", "openid"),
            ]
            func post(_ proof: String) async throws -> Reply {
                try await api.postForm("/oauth2/default/v1/token", fields, headers: [HTTPField.Name("DPoP")!: proof])
            }
            let first = try await post(try await proofKey.proof(url: url, now: await api.now))
            #expect(first.status == .badRequest, "\(first.text)")
            let nonce = try #require(first.header("dpop-nonce"))
            let second = try await post(try await proofKey.proof(url: url, now: await api.now, nonce: nonce))
            #expect(second.status == .ok, "\(second.text)")
            let body = try second.object()
            #expect(body["token_type"] as? String == "DPoP")
            let token = try #require(body["access_token"] as? String)
            let claims = try await api.servedKeys().verify(token, as: TestAccessClaims.self)
            #expect(claims.cnf?.jkt == proofKey.thumbprint)
        }
    }
}
