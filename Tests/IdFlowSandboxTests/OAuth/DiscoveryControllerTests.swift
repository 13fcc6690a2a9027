import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

@Suite("Discovery and keys")
struct DiscoveryControllerTests {
    @Test("the default AS discovery has the recorded keys and points at this server")
    func defaultASDiscovery() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/oauth2/default/.well-known/openid-configuration", auth: .none)
            #expect(reply.status == .ok)
            let document = try reply.object()
            let recorded = try Fixtures.object("okta-core/oidc-openid-configuration-default-as.json")
            #expect(Set(document.keys) == Set(recorded.keys))
            let orgURL = await api.state.orgURL
            #expect(document["issuer"] as? String == "\(orgURL)/oauth2/default")
            for (key, path) in [
                ("authorization_endpoint", "authorize"), ("token_endpoint", "token"), ("jwks_uri", "keys"),
                ("userinfo_endpoint", "userinfo"), ("introspection_endpoint", "introspect"),
                ("revocation_endpoint", "revoke"), ("end_session_endpoint", "logout"),
            ] {
                #expect(document[key] as? String == "\(orgURL)/oauth2/default/v1/\(path)", "\(key)")
            }
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["id_token_signing_alg_values_supported"] as? [String] == ["RS256"])
            #expect((document["token_endpoint_auth_methods_supported"] as? [String])?.contains("none") == true)
            #expect((document["scopes_supported"] as? [String])?.contains("offline_access") == true)
            // Like Okta's (an Identity Engine org's included), no interaction_code although the sandbox serves IDX:
            // the grant is an org and app setting no discovery document names (doctor asks /v1/interact instead).
            let grants = try #require(document["grant_types_supported"] as? [String])
            #expect(grants.contains("authorization_code") && !grants.contains("interaction_code"))
            #expect(!((recorded["grant_types_supported"] as? [String])?.contains("interaction_code") ?? true))
            // ?client_id= is accepted, as Okta's discovery accepts it.
            let withClient = try await api.send(
                .get, "/oauth2/default/.well-known/openid-configuration?client_id=0oaidflowsandbox0000", auth: .none)
            #expect(withClient.status == .ok)
        }
    }

    @Test("the org AS discovery has the recorded keys; issuer is the org")
    func orgASDiscovery() async throws {
        try await withSandbox { api in
            let document = try await api.send(.get, "/.well-known/openid-configuration", auth: .none).object()
            let recorded = try Fixtures.object("okta-core/oidc-openid-configuration-org-as.json")
            #expect(Set(document.keys) == Set(recorded.keys))
            let orgURL = await api.state.orgURL
            #expect(document["issuer"] as? String == orgURL)
            #expect(document["token_endpoint"] as? String == "\(orgURL)/oauth2/v1/token")
            #expect(document["jwks_uri"] as? String == "\(orgURL)/oauth2/v1/keys")
        }
    }

    @Test("the OAuth metadata of the custom AS has the recorded keys")
    func oauthMetadata() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/oauth2/default/.well-known/oauth-authorization-server", auth: .none)
            let document = try reply.object()
            let recorded = try Fixtures.object("okta-core/oauth-authorization-server-metadata-custom-as.json")
            #expect(Set(document.keys) == Set(recorded.keys))
            #expect(document["claims_supported"] as? [String] == recorded["claims_supported"] as? [String])
            #expect(reply.keysAppearInOrder(["issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint"]))
            // Only custom authorization servers have this document.
            let org = try await api.send(.get, "/.well-known/oauth-authorization-server", auth: .none)
            #expect(org.status == .notFound)
        }
    }

    @Test("the JWKS has one RS256 key with the recorded members, the same for both servers")
    func keys() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/oauth2/default/v1/keys", auth: .none)
            #expect(reply.status == .ok)
            #expect(reply.header("Cache-Control")?.hasSuffix("must-revalidate") == true)
            #expect(reply.header("Cache-Control")?.hasPrefix("max-age=") == true)
            let keys = try #require(try reply.object()["keys"] as? [[String: Any]])
            let recorded = try #require(try Fixtures.object("okta-core/oauth-keys-jwks.json")["keys"] as? [[String: Any]])
            #expect(keys.count == 1)
            let key = try #require(keys.first)
            #expect(Set(key.keys) == Set(recorded[0].keys))
            #expect(key["alg"] as? String == "RS256")
            #expect(key["kty"] as? String == "RSA")
            #expect(key["use"] as? String == "sig")
            #expect(key["e"] as? String == "AQAB")
            let modulus = try #require(key["n"] as? String)
            #expect(modulus.count >= 342, "a 2048-bit modulus")
            let kid = try #require(key["kid"] as? String)
            #expect(kid.count == 43)

            let org = try #require(try await api.send(.get, "/oauth2/v1/keys", auth: .none).object()["keys"] as? [[String: Any]])
            #expect(org.first?["kid"] as? String == kid)
        }
    }

    @Test("each sandbox has its own key")
    func keyPerSandbox() async throws {
        let kids = LockedKids()
        for _ in 0..<2 {
            try await withSandbox { api in
                let keys = try #require(
                    try await api.send(.get, "/oauth2/default/v1/keys", auth: .none).object()["keys"] as? [[String: Any]])
                await kids.add(keys.first?["kid"] as? String ?? "")
            }
        }
        #expect(await kids.values.count == 2)
    }

    actor LockedKids {
        var values: Set<String> = []
        func add(_ kid: String) { values.insert(kid) }
    }

    @Test("an unknown authorization server is 404 E0000007 (AuthorizationServer)")
    func unknownAuthorizationServer() async throws {
        try await withSandbox { api in
            for (method, path) in [
                (HTTPRequest.Method.get, "/oauth2/aus0nope/.well-known/openid-configuration"),
                (.get, "/oauth2/aus0nope/v1/keys"), (.post, "/oauth2/aus0nope/v1/token"),
                (.get, "/oauth2/aus0nope/v1/authorize"),
            ] {
                let reply = try await api.send(method, path, auth: .none)
                #expect(reply.status == .notFound, "\(path)")
                let error = try reply.oktaError()
                #expect(error.code == "E0000007")
                #expect(error.summary == "Not found: Resource not found: aus0nope (AuthorizationServer)")
            }
        }
    }
}
