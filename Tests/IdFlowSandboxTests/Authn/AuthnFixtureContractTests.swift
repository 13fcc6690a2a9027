import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// Authn speaks the recorded shapes: for each fixture, the sandbox's answer to the same request has the same key
/// paths (recursively) and, for errors, the same code and text.
@Suite("Authn responses match the recorded Okta fixtures")
struct AuthnFixtureContractTests {
    @Test func authnPasswordReset() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "dade.murphy@example.com")["id"] as? String)
            let token = try await api.activationToken(userId: id)
            let reply = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            try FixtureContract.expectSameKeys(reply, fixture: "authn-password-reset-account-activation.json")
            #expect(
                reply.keysAppearInOrder(["stateToken", "expiresAt", "status", "recoveryType", "_embedded", "_links"]))
            let policy = try #require((try reply.object()["_embedded"] as? [String: Any])?["policy"] as? [String: Any])
            let recorded = try #require(
                (try Fixtures.object("okta-core/authn-password-reset-account-activation.json")["_embedded"]
                    as? [String: Any])?["policy"] as? [String: Any])
            #expect(
                (policy["complexity"] as? [String: Int]) == (recorded["complexity"] as? [String: Int]),
                "same complexity rules as the recording")
        }
    }

    @Test func authnSuccess() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "test_user@example.com")
            let reply = try await api.send(
                .post, "/api/v1/authn", json: ["username": "test_user@example.com", "password": "Correct-Horse-7"],
                auth: .none)
            try FixtureContract.expectSameKeys(reply, fixture: "authn-success.json")
        }
    }

    @Test func errorE0000004() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/authn", json: ["token": "bogus"], auth: .none)
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000004-authentication-failed.json", status: .unauthorized)
        }
    }

    @Test func errorE0000079() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "used@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let body: [String: Any] = ["stateToken": stateToken, "newPassword": "Correct-Horse-7"]
            _ = try await api.send(.post, "/api/v1/authn/credentials/reset_password", json: body, auth: .none)
            let reply = try await api.send(.post, "/api/v1/authn/credentials/reset_password", json: body, auth: .none)
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000079-wrong-authn-state.json", status: .forbidden)
        }
    }
}
