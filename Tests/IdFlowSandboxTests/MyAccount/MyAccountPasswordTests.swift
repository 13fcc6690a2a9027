import Foundation
import HTTPTypes
import Testing

@testable import IdFlowSandbox

/// The MyAccount Password API (direct-auth.md §9.2): the scope, the version in `Accept`, the password policy and its
/// history, as a client sees them.
@Suite("myaccount: password")
struct MyAccountPasswordTests {
    static let scope = "openid okta.myAccount.password.manage"
    static let accept: HTTPFields = [.accept: "application/json; okta-version=1.0.0"]
    static let newPassword = "Battery-Staple-42"

    @Test("PUT with the scope: 200 Password object as application/json;okta-version=1.0.0; the old password stops working")
    func replace() async throws {
        try await withSandbox { api in
            let (userId, token) = try await api.accessToken(email: "ada@example.com", scope: Self.scope)
            let reply = try await api.send(
                .put, "/idp/myaccount/password", json: ["profile": ["password": Self.newPassword]], headers: Self.accept,
                auth: api.bearer(token))
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.header("Content-Type") == "application/json;okta-version=1.0.0")
            let body = try reply.object()
            #expect(Set(body.keys) == ["id", "status", "created", "lastUpdated", "_links"])
            #expect(body["status"] as? String == "ACTIVE")
            #expect((body["id"] as? String)?.hasPrefix("00T") == true)
            let links = try #require(body["_links"] as? [String: Any])
            #expect(((links["self"] as? [String: Any])?["href"] as? String)?.hasSuffix("/idp/myaccount/password") == true)

            try await api.passwordGrant("ada@example.com").expectDirectAuthError(
                .badRequest, "invalid_grant", "The credentials provided were invalid.")
            #expect(try await api.passwordGrant("ada@example.com", password: Self.newPassword).status == .ok)
            #expect(try await api.send(.get, "/api/v1/users/\(userId)").object()["status"] as? String == "ACTIVE")
        }
    }

    @Test("a token without okta.myAccount.password.manage: 403 E0000006 with insufficient_scope, as the app-authenticators API")
    func scopeRefused() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "ada@example.com")
            let reply = try await api.send(
                .put, "/idp/myaccount/password", json: ["profile": ["password": Self.newPassword]], headers: Self.accept,
                auth: api.bearer(token))
            #expect(reply.status == .forbidden, "\(reply.text)")
            #expect(try reply.oktaError().code == "E0000006")
            #expect(reply.header("WWW-Authenticate")?.contains(#"scope="okta.myAccount.password.manage""#) == true)
            let none = try await api.send(
                .put, "/idp/myaccount/password", json: ["profile": ["password": Self.newPassword]], headers: Self.accept, auth: .none)
            #expect(try none.status == .unauthorized && none.oktaError().code == "E0000011", "\(none.text)")
        }
    }

    @Test("no API version in Accept: 400 E0000021, nothing changed")
    func versionRequired() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "ada@example.com", scope: Self.scope)
            for accept in [nil, "application/json", "application/json; okta-version=2.0.0"] {
                let headers: HTTPFields = accept.map { [.accept: $0] } ?? [:]
                let reply = try await api.send(
                    .put, "/idp/myaccount/password", json: ["profile": ["password": Self.newPassword]], headers: headers,
                    auth: api.bearer(token))
                #expect(reply.status == .badRequest, "\(reply.text)")
                #expect(try reply.oktaError().code == "E0000021")
            }
            #expect(try await api.passwordGrant("ada@example.com").status == .ok, "the password is unchanged")
        }
    }

    @Test("the policy's rules and its history: 403 E0000080, as every other new password")
    func policyRefused() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "ada@example.com", scope: Self.scope)
            for password in ["short", SandboxClient.directAuthPassword] {
                let reply = try await api.send(
                    .put, "/idp/myaccount/password", json: ["profile": ["password": password]], headers: Self.accept,
                    auth: api.bearer(token))
                #expect(reply.status == .forbidden, "\(reply.text)")
                let error = try reply.oktaError()
                #expect(error.code == "E0000080")
                #expect(error.causes == [PasswordPolicy.requirements])
            }
            let blank = try await api.send(
                .put, "/idp/myaccount/password", json: ["profile": [:]], headers: Self.accept, auth: api.bearer(token))
            #expect(try blank.status == .badRequest && blank.oktaError().code == "E0000001", "\(blank.text)")
        }
    }

    @Test("change-password: the old password verified (E0000014), then 204 and the new one signs in")
    func change() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "ada@example.com", scope: Self.scope)
            let wrong = try await api.send(
                .post, "/idp/myaccount/password/change-password",
                json: ["oldPassword": "Not-The-Password-1", "newPassword": Self.newPassword], headers: Self.accept, auth: api.bearer(token))
            #expect(try wrong.status == .forbidden && wrong.oktaError().code == "E0000014", "\(wrong.text)")
            let reused = try await api.send(
                .post, "/idp/myaccount/password/change-password",
                json: ["oldPassword": SandboxClient.directAuthPassword, "newPassword": SandboxClient.directAuthPassword],
                headers: Self.accept, auth: api.bearer(token))
            #expect(try reused.status == .forbidden && reused.oktaError().code == "E0000080", "\(reused.text)")
            let changed = try await api.send(
                .post, "/idp/myaccount/password/change-password",
                json: ["oldPassword": SandboxClient.directAuthPassword, "newPassword": Self.newPassword], headers: Self.accept,
                auth: api.bearer(token))
            #expect(changed.status == .noContent, "\(changed.text)")
            #expect(try await api.passwordGrant("ada@example.com", password: Self.newPassword).status == .ok)
        }
    }

    @Test("complexity-requirements: the policy's published rules")
    func complexity() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "ada@example.com", scope: Self.scope)
            let reply = try await api.send(
                .get, "/idp/myaccount/password/complexity-requirements", headers: Self.accept, auth: api.bearer(token))
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.header("Content-Type") == "application/json;okta-version=1.0.0")
            let complexity = try #require(try reply.object()["complexity"] as? [String: Any])
            #expect(complexity["minLength"] as? Int == PasswordPolicy.minLength)
            #expect(complexity["minUpperCase"] as? Int == 1)
            #expect((try reply.object()["age"] as? [String: Any])?["historyCount"] as? Int == 1)
        }
    }
}
