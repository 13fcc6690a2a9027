import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("/resource, /resource/admin, /org-resource and their RFC 9728 metadata")
struct ResourceControllerTests {
    static let metadataURL = "http://127.0.0.1/.well-known/oauth-protected-resource/resource"

    func call(_ api: SandboxClient, _ path: String = "/resource", method: HTTPRequest.Method = .get, token: String?, json: Any? = nil)
        async throws -> Reply
    {
        try await api.send(method, path, json: json, auth: token.map { .header("Bearer \($0)") } ?? .none)
    }

    /// The parameters of the Bearer challenge, read the simple way (the values here hold no quotes or commas).
    func challenge(_ reply: Reply) throws -> [String: String] {
        let header = try #require(reply.header("WWW-Authenticate"))
        #expect(header.hasPrefix("Bearer "))
        var parameters: [String: String] = [:]
        for part in header.dropFirst(7).components(separatedBy: "\", ") {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            parameters[pieces[0]] = pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return parameters
    }

    @Test("a valid access token gets the echo, over GET and POST")
    func echo() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "echo@example.com")
            let token = try #require(tokens["access_token"] as? String)
            let user = try await api.send(.get, "/api/v1/users/echo@example.com").object()
            let get = try await call(api, token: token)
            #expect(get.status == .ok, "\(get.text)")
            let body = try get.object()
            #expect(Set(body.keys) == ["sub", "scopes", "method", "body"])
            #expect(body["sub"] as? String == user["id"] as? String)
            #expect(body["scopes"] as? [String] == ["openid", "profile", "email", "offline_access"])
            #expect(body["method"] as? String == "GET")
            #expect(body["body"] is NSNull)

            let post = try await call(api, method: .post, token: token, json: ["item": "book", "qty": 2])
            #expect(post.status == .ok)
            #expect(try post.object()["method"] as? String == "POST")
            #expect((try post.object()["body"] as? [String: Any])?["qty"] as? Int == 2)
        }
    }

    @Test("without a token: 401 with the challenge and resource_metadata, no error code (RFC 6750 §3.1)")
    func missingToken() async throws {
        try await withSandbox { api in
            let reply = try await call(api, token: nil)
            #expect(reply.status == .unauthorized)
            let parameters = try challenge(reply)
            #expect(parameters == ["realm": "idflow-sandbox", "resource_metadata": Self.metadataURL])
        }
    }

    @Test("a bad, revoked or expired token: 401 invalid_token with resource_metadata")
    func invalidTokens() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "bad@example.com")
            let token = try #require(tokens["access_token"] as? String)
            for refused in ["nope", String(token.dropLast(2))] {
                let reply = try await call(api, token: refused)
                #expect(reply.status == .unauthorized)
                #expect(try challenge(reply)["error"] == "invalid_token")
                #expect(try challenge(reply)["resource_metadata"] == Self.metadataURL)
                #expect(try reply.object()["error"] as? String == "invalid_token")
            }
            // Expired by the sandbox clock.
            try await api.advanceClock(seconds: 3601)
            #expect(try await call(api, token: token).status == .unauthorized)
            try await api.state.resetClock()
            #expect(try await call(api, token: token).status == .ok)
            // Revoked at the authorization server.
            let revoked = try await api.postForm(
                "/oauth2/default/v1/revoke", [("token", token), ("token_type_hint", "access_token"), ("client_id", "0oaidflowsandbox0000")])
            #expect(revoked.status == .ok)
            let after = try await call(api, token: token)
            #expect(after.status == .unauthorized)
            #expect(try challenge(after)["error"] == "invalid_token")
        }
    }

    @Test("a DPoP or Basic Authorization is refused, never taken as Bearer")
    func otherSchemes() async throws {
        try await withSandbox { api in
            let tokens = try await api.signInWithPKCE(email: "scheme@example.com")
            let token = try #require(tokens["access_token"] as? String)
            let dpop = try await api.send(.get, "/resource", auth: .header("DPoP \(token)"))
            #expect(dpop.status == .unauthorized)
            #expect(try challenge(dpop)["error"] == "invalid_token")
            let basic = try await api.send(.get, "/resource", auth: .header("Basic abc"))
            #expect(basic.status == .badRequest)
            #expect(try challenge(basic)["error"] == "invalid_request")
        }
    }

    @Test("the admin URL needs resource.admin: 403 insufficient_scope naming it, 200 with it")
    func adminScope() async throws {
        try await withSandbox { api in
            let plain = try #require(try await api.signInWithPKCE(email: "plain@example.com")["access_token"] as? String)
            let refused = try await call(api, "/resource/admin", token: plain)
            #expect(refused.status == .forbidden)
            #expect(try challenge(refused)["error"] == "insufficient_scope")
            #expect(try challenge(refused)["scope"] == "resource.admin")
            #expect(try challenge(refused)["resource_metadata"] == Self.metadataURL)
            #expect(try refused.object()["error"] as? String == "insufficient_scope")

            let admin = try #require(
                try await api.signInWithPKCE(email: "admin@example.com", scope: "openid offline_access resource.admin")["access_token"]
                    as? String)
            let allowed = try await call(api, "/resource/admin", token: admin)
            #expect(allowed.status == .ok, "\(allowed.text)")
            #expect(try allowed.object()["scopes"] as? [String] == ["openid", "offline_access", "resource.admin"])
        }
    }

    @Test("the metadata documents, and the org resource taking only the org authorization server's tokens")
    func metadataAndOrgResource() async throws {
        try await withSandbox { api in
            let metadata = try await api.send(.get, "/.well-known/oauth-protected-resource/resource", auth: .none)
            #expect(metadata.status == .ok)
            let document = try metadata.object()
            #expect(document["resource"] as? String == "http://127.0.0.1/resource")
            #expect(document["authorization_servers"] as? [String] == ["http://127.0.0.1/oauth2/default"])
            #expect((document["scopes_supported"] as? [String])?.contains("resource.admin") == true)
            #expect(document["bearer_methods_supported"] as? [String] == ["header"])

            let orgMetadata = try await api.send(.get, "/.well-known/oauth-protected-resource/org-resource", auth: .none).object()
            #expect(orgMetadata["resource"] as? String == "http://127.0.0.1/org-resource")
            #expect(orgMetadata["authorization_servers"] as? [String] == ["http://127.0.0.1"])

            let defaultToken = try #require(try await api.signInWithPKCE(email: "def@example.com")["access_token"] as? String)
            let refused = try await call(api, "/org-resource", token: defaultToken)
            #expect(refused.status == .unauthorized)
            #expect(
                try challenge(refused)["resource_metadata"] == "http://127.0.0.1/.well-known/oauth-protected-resource/org-resource")
            let orgToken = try #require(
                try await api.signInWithPKCE(email: "org@example.com", base: "/oauth2/v1")["access_token"] as? String)
            #expect(try await call(api, "/org-resource", token: orgToken).status == .ok)
            #expect(try await call(api, token: orgToken).status == .unauthorized, "the default AS's resource refuses org tokens")
        }
    }

    @Test("/sandbox/info lists the resource")
    func info() async throws {
        try await withSandbox { api in
            let info = try await api.send(.get, "/sandbox/info").object()
            let resource = try #require(info["resource"] as? [String: String])
            #expect(
                resource == [
                    "url": "http://127.0.0.1/resource", "adminUrl": "http://127.0.0.1/resource/admin", "adminScope": "resource.admin",
                    "metadataUrl": Self.metadataURL, "orgIssuerUrl": "http://127.0.0.1/org-resource",
                ])
        }
    }
}
