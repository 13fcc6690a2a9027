import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

/// Service apps at the org authorization server: private_key_jwt checked as Okta checks it (okta-core.md §H1),
/// and the token response and claims of §H2.
@Suite("client credentials with private_key_jwt")
struct ClientCredentialsTests {
    static let clientId = "0oatestservice000001"

    /// A sandbox with one service app holding `key` (PEM, key id `k1`) and the users scopes.
    static func withServiceApp(
        _ key: TestClientKey, scopes: [String] = ["okta.users.read", "okta.users.manage"], requireDPoP: Bool = false,
        _ test: @Sendable (SandboxClient) async throws -> Void
    ) async throws {
        try await withSandbox(
            configure: {
                $0.serviceApps = [
                    ServiceAppConfiguration(
                        clientId: clientId, publicKey: key.publicPEM, keyId: "k1", scopes: scopes, requireDPoP: requireDPoP)
                ]
            }, test)
    }

    @Test("a signed assertion gets a Bearer token with the recorded shape and Okta's service-app claims")
    func bearerToken() async throws {
        let key = try await TestClientKey.rsa()
        try await Self.withServiceApp(key) { api in
            let orgURL = await api.orgURL
            let assertion = try await key.assertion(
                clientId: Self.clientId, audience: orgURL + "/oauth2/v1/token", now: await api.now, kid: "k1")
            let reply = try await api.clientCredentials(assertion: assertion, scope: "okta.users.read okta.users.manage")
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.header("Cache-Control") == "no-store")
            let body = try reply.object()
            let recorded = try Fixtures.object("okta-oauth-service/token-client-credentials-bearer.example.json")
            #expect(Set(body.keys) == Set(recorded.keys))
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["expires_in"] as? Int == 3600)
            #expect(body["scope"] as? String == "okta.users.read okta.users.manage")
            let token = try #require(body["access_token"] as? String)
            let claims = try await api.servedKeys(base: "/oauth2/v1").verify(token, as: TestAccessClaims.self)
            #expect(claims.iss == orgURL)
            #expect(claims.aud == orgURL)
            #expect(claims.sub == Self.clientId)
            #expect(claims.cid == Self.clientId)
            #expect(claims.uid == nil)
            #expect(claims.scp == ["okta.users.read", "okta.users.manage"])
            #expect(claims.jti?.hasPrefix("AT.") == true)
            #expect(claims.exp.flatMap { exp in claims.iat.map { exp - $0 } } == 3600)
            #expect(claims.cnf == nil)
            #expect(try jwtHeader(token)["alg"] as? String == "RS256")
        }
    }

    @Test("ES256 keys, a JWK Set, and an assertion without kid when the app has one key")
    func es256AndJWKS() async throws {
        let key = try await TestClientKey.p256()
        try await withSandbox(
            configure: {
                $0.serviceApps = [
                    ServiceAppConfiguration(clientId: Self.clientId, jwks: key.jwks(kid: "ec-1"), scopes: ["okta.users.read"])
                ]
            }
        ) { api in
            let url = await api.orgURL + "/oauth2/v1/token"
            let named = try await key.assertion(clientId: Self.clientId, audience: url, now: await api.now, kid: "ec-1")
            #expect(try await api.clientCredentials(assertion: named).status == .ok)
            let unnamed = try await key.assertion(clientId: Self.clientId, audience: url, now: await api.now)
            #expect(try await api.clientCredentials(assertion: unnamed).status == .ok)
            let wrongKid = try await key.assertion(clientId: Self.clientId, audience: url, now: await api.now, kid: "ec-2")
            let reply = try await api.clientCredentials(assertion: wrongKid)
            try reply.expectCatalogued(.unauthorized, "invalid_client")
            #expect(try reply.oauthError().description == "The client_assertion JWT kid is invalid.")
        }
    }

    @Test("with several keys an assertion must name one of them by kid")
    func severalKeys() async throws {
        let first = try await TestClientKey.rsa()
        let second = try await TestClientKey.p256()
        var keys = [first.jwk, second.jwk]
        keys[0]["kid"] = "rsa-1"
        keys[1]["kid"] = "ec-1"
        let jwks = String(decoding: try JSONSerialization.data(withJSONObject: ["keys": keys]), as: UTF8.self)
        try await withSandbox(
            configure: { $0.serviceApps = [ServiceAppConfiguration(clientId: Self.clientId, jwks: jwks, scopes: ["okta.users.read"])] }
        ) { api in
            let url = await api.orgURL + "/oauth2/v1/token"
            let named = try await second.assertion(clientId: Self.clientId, audience: url, now: await api.now, kid: "ec-1")
            #expect(try await api.clientCredentials(assertion: named).status == .ok)
            let unnamed = try await first.assertion(clientId: Self.clientId, audience: url, now: await api.now)
            #expect(
                try await api.clientCredentials(assertion: unnamed).oauthError().description == "The client_assertion JWT kid is invalid.")
            let mismatched = try await first.assertion(clientId: Self.clientId, audience: url, now: await api.now, kid: "ec-1")
            #expect(try await api.clientCredentials(assertion: mismatched).status == .unauthorized)
        }
    }

    @Test("each assertion failure is 401 invalid_client with Okta's description")
    func assertionFailures() async throws {
        let key = try await TestClientKey.rsa()
        let other = try await TestClientKey.rsa()
        try await Self.withServiceApp(key) { api in
            let url = await api.orgURL + "/oauth2/v1/token"
            let now = await api.now
            let cases: [(String, String)] = [
                (try await other.assertion(clientId: Self.clientId, audience: url, now: now), "The client_assertion signature is invalid."),
                (
                    try await key.assertion(clientId: Self.clientId, audience: url + "x", now: now),
                    "The audience claim for client_assertion must be the endpoint invoked for the request."
                ),
                (
                    try await key.assertion(clientId: Self.clientId, audience: url, now: now.addingTimeInterval(-600)),
                    "The client_assertion token is expired."
                ),
                (
                    try await key.assertion(clientId: Self.clientId, audience: url, now: now, lifetime: 7200),
                    "The client_assertion token has an expiration too far into the future."
                ),
                (
                    try await key.assertion(clientId: "0oanobody00000000000", audience: url, now: now),
                    "The issuer claim for client_assertion is not a valid client_id."
                ),
                (
                    try await key.assertion(clientId: Self.clientId, audience: url, now: now, subject: "0oanobody00000000000"),
                    "The subject claim for client_assertion is not a valid client_id."
                ),
                (
                    try await key.assertion(clientId: Self.clientId, audience: url, now: now, kid: "k2"),
                    "The client_assertion JWT kid is invalid."
                ),
                ("not.a-jwt", "The parsing of the client_assertion failed."),
            ]
            for (assertion, description) in cases {
                let reply = try await api.clientCredentials(assertion: assertion)
                try reply.expectCatalogued(.unauthorized, "invalid_client")
                #expect(try reply.oauthError().description == description)
            }
        }
    }

    @Test("a replayed assertion is refused; a wrong assertion type is 400; no assertion at the org AS is 401")
    func replayAndType() async throws {
        let key = try await TestClientKey.rsa()
        try await Self.withServiceApp(key) { api in
            let assertion = try await key.assertion(
                clientId: Self.clientId, audience: await api.orgURL + "/oauth2/v1/token", now: await api.now)
            #expect(try await api.clientCredentials(assertion: assertion).status == .ok)
            let replay = try await api.clientCredentials(assertion: assertion)
            try replay.expectCatalogued(.unauthorized, "invalid_client")
            #expect(try replay.oauthError().description == "The client_assertion token has already been used.")

            let fresh = try await key.assertion(
                clientId: Self.clientId, audience: await api.orgURL + "/oauth2/v1/token", now: await api.now)
            let wrongType = try await api.postForm(
                "/oauth2/v1/token",
                [
                    ("grant_type", "client_credentials"), ("scope", "okta.users.read"), ("client_assertion_type", "jwt"),
                    ("client_assertion", fresh),
                ])
            try wrongType.expectCatalogued(.badRequest, "invalid_request")
            #expect(try wrongType.oauthError().description == "The client_assertion_type is invalid.")

            let secret = try await api.postForm(
                "/oauth2/v1/token", [("grant_type", "client_credentials"), ("scope", "okta.users.read"), ("client_id", Self.clientId)])
            try secret.expectCatalogued(.unauthorized, "invalid_client")
            #expect(
                try secret.oauthError().description
                    == "Client Credentials requests to the Org Authorization Server must use the private_key_jwt token_endpoint_auth_method."
            )
        }
    }

    @Test("scopes: none, openid, none granted are refused; partly granted gives only the granted ones")
    func scopes() async throws {
        let key = try await TestClientKey.rsa()
        try await Self.withServiceApp(key, scopes: ["okta.users.read"]) { api in
            let url = await api.orgURL + "/oauth2/v1/token"
            for (scope, error, description) in [
                (nil, "invalid_scope", "No scopes were requested."),
                ("openid okta.users.read", "invalid_scope", "Cannot request 'openid' scopes using client credentials."),
                ("okta.groups.read", "consent_required", "You are not allowed any of the requested scopes."),
            ] as [(String?, String, String)] {
                let reply = try await api.clientCredentials(
                    assertion: try await key.assertion(clientId: Self.clientId, audience: url, now: await api.now), scope: scope)
                try reply.expectCatalogued(.badRequest, error)
                #expect(try reply.oauthError().description == description)
            }
            let partly = try await api.clientCredentials(
                assertion: try await key.assertion(clientId: Self.clientId, audience: url, now: await api.now),
                scope: "okta.users.manage okta.users.read okta.groups.read")
            #expect(partly.status == .ok)
            #expect(try partly.object()["scope"] as? String == "okta.users.read")
        }
    }

    @Test("the confidential client and service apps use client credentials at the default AS for its custom scopes")
    func defaultAuthorizationServer() async throws {
        let key = try await TestClientKey.rsa()
        try await withSandbox(
            configure: {
                $0.confidentialClientId = "0oaconfidential00001"
                $0.confidentialClientSecret = "s3cret-s3cret-s3cret-s3cret-s3cret-s3cret"
                $0.serviceApps = [ServiceAppConfiguration(clientId: Self.clientId, publicKey: key.publicPEM, scopes: ["okta.users.read"])]
            }
        ) { api in
            let base = "/oauth2/default/v1"
            let confidential: [(String, String)] = [
                ("client_id", "0oaconfidential00001"), ("client_secret", "s3cret-s3cret-s3cret-s3cret-s3cret-s3cret"),
            ]
            let reply = try await api.clientCredentials(assertion: nil, scope: "resource.admin", base: base, extra: confidential)
            #expect(reply.status == .ok, "\(reply.text)")
            let token = try #require(try reply.object()["access_token"] as? String)
            let claims = try await api.servedKeys().verify(token, as: TestAccessClaims.self)
            #expect(claims.iss == "\(await api.orgURL)/oauth2/default")
            #expect(claims.aud == "api://default")
            #expect(claims.sub == "0oaconfidential00001")
            #expect(claims.scp == ["resource.admin"])

            let openid = try await api.clientCredentials(assertion: nil, scope: "openid", base: base, extra: confidential)
            #expect(try openid.oauthError().description == "Cannot request 'openid' scopes using client credentials.")
            let offline = try await api.clientCredentials(assertion: nil, scope: "offline_access", base: base, extra: confidential)
            try offline.expectCatalogued(.badRequest, "invalid_scope")

            let assertion = try await key.assertion(
                clientId: Self.clientId, audience: await api.orgURL + base + "/token", now: await api.now)
            let service = try await api.clientCredentials(assertion: assertion, scope: "resource.admin", base: base)
            #expect(service.status == .ok, "\(service.text)")

            let publicClient = try await api.clientCredentials(
                assertion: nil, scope: "resource.admin", base: base, extra: [("client_id", "0oaidflowsandbox0000")])
            #expect(try publicClient.oauthError().error == "unauthorized_client")
        }
    }
}
