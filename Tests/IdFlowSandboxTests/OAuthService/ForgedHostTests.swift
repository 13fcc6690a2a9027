import Foundation
import HTTPTypes
import IdFlowTestSupport
import Testing
import URINormalization

@testable import IdFlowSandbox

/// Issue 36 item 4: a DPoP proof's `htu` and a client assertion's `aud` must name the org URL or a configured alias,
/// never whatever the request's `Host` header says. HummingbirdTesting sends every request with `Host: localhost`
/// while the sandbox's org URL says `127.0.0.1`: that header plays the forged Host of a resource server replaying
/// a proof (or an assertion) that names it.
@Suite("htu and aud are matched against the org URL and its aliases, not the Host header")
struct ForgedHostTests {
    /// The token URL as the forged Host spells it.
    static let forgedTokenURL = "http://localhost/oauth2/v1/token"

    /// The nonce the token endpoint asks for (its first answer to a proof without one).
    static func nonce(_ api: SandboxClient, client: TestClientKey, proofKey: TestClientKey) async throws -> String {
        let url = await api.orgURL + "/oauth2/v1/token"
        let first = try await api.clientCredentials(
            assertion: try await client.assertion(clientId: ClientCredentialsTests.clientId, audience: url, now: await api.now),
            proof: try await proofKey.proof(url: url, now: await api.now))
        return try #require(first.header("dpop-nonce"), "\(first.text)")
    }

    @Test("a proof whose htu names the Host header's URL is refused: 400 invalid_dpop_proof 'htu'")
    func forgedHostProof() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.p256()
        try await ClientCredentialsTests.withServiceApp(client, requireDPoP: true) { api in
            #expect(await api.orgURL == "http://127.0.0.1")
            let nonce = try await Self.nonce(api, client: client, proofKey: proofKey)
            let tokenURL = await api.orgURL + "/oauth2/v1/token"
            let replayed = try await api.clientCredentials(
                assertion: try await client.assertion(clientId: ClientCredentialsTests.clientId, audience: tokenURL, now: await api.now),
                proof: try await proofKey.proof(url: Self.forgedTokenURL, now: await api.now, nonce: nonce))
            #expect(replayed.status == .badRequest, "\(replayed.text)")
            #expect(try replayed.oauthError().error == "invalid_dpop_proof")
            #expect(try replayed.oauthError().description == "'htu' claim in the DPoP proof JWT is invalid.")
        }
    }

    @Test("an assertion whose aud names the Host header's URL is refused: 401 invalid_client, wrong audience")
    func forgedHostAssertion() async throws {
        let client = try await TestClientKey.rsa()
        try await ClientCredentialsTests.withServiceApp(client) { api in
            let replayed = try await api.clientCredentials(
                assertion: try await client.assertion(
                    clientId: ClientCredentialsTests.clientId, audience: Self.forgedTokenURL, now: await api.now))
            #expect(replayed.status == .unauthorized, "\(replayed.text)")
            #expect(try replayed.oauthError().error == "invalid_client")
            #expect(
                try replayed.oauthError().description
                    == "The audience claim for client_assertion must be the endpoint invoked for the request.")
        }
    }

    @Test("a configured alias is accepted, and both are compared after RFC 3986 normalisation")
    func aliasesAndNormalisation() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.p256()
        try await withSandbox(configure: {
            $0.serviceApps = [
                ServiceAppConfiguration(
                    clientId: ClientCredentialsTests.clientId, publicKey: client.publicPEM, keyId: "k1", scopes: ["okta.users.read"],
                    requireDPoP: true)
            ]
            $0.orgHostAliases = ["localhost"]
        }) { api in
            let nonce = try await Self.nonce(api, client: client, proofKey: proofKey)
            let viaAlias = try await api.clientCredentials(
                assertion: try await client.assertion(
                    clientId: ClientCredentialsTests.clientId, audience: "HTTP://LocalHost:80/oauth2/v1/./token", now: await api.now),
                proof: try await proofKey.proof(url: "http://LOCALHOST/oauth2/v2/../v1/token?x=1", now: await api.now, nonce: nonce))
            #expect(viaAlias.status == .ok, "\(viaAlias.text)")
            let elsewhere = try await api.clientCredentials(
                assertion: try await client.assertion(
                    clientId: ClientCredentialsTests.clientId, audience: "http://127.0.0.1/oauth2/v1/token", now: await api.now),
                proof: try await proofKey.proof(url: "http://127.0.0.2/oauth2/v1/token", now: await api.now, nonce: nonce))
            #expect(try elsewhere.oauthError().description == "'htu' claim in the DPoP proof JWT is invalid.")
        }
    }

    @Test("RFC 3986 normalisation: case, default port, dot segments, escapes; user info has no normal form")
    func normalisation() {
        #expect(URINormalization.normalized("HTTPS://Example.COM:443/a/./b/../c") == "https://example.com/a/c")
        #expect(URINormalization.normalized("http://example.com:80") == "http://example.com/")
        #expect(URINormalization.normalized("http://example.com:8080/a/%2f/..") == "http://example.com:8080/a/")
        #expect(URINormalization.normalized("http://example.com/a%2fb") == "http://example.com/a%2Fb")
        #expect(URINormalization.normalized("http://user:secret@example.com/") == nil)
        #expect(URINormalization.normalized("ftp://example.com/") == nil)
    }

    @Test("orgHostAliases holds host names only")
    func aliasValidation() throws {
        var configuration = SandboxConfiguration()
        configuration.orgHostAliases = ["localhost", "[::1]"]
        try configuration.validate()
        configuration.orgHostAliases = ["http://evil.example"]
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
        configuration.orgHostAliases = ["evil.example:8443"]
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
    }
}
