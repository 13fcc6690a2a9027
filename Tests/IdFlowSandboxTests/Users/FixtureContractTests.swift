import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The sandbox speaks the recorded shapes: for each fixture, the sandbox's answer to the same
/// request has the same key paths (recursively) and, for errors, the same code and text.
@Suite("Sandbox responses match the recorded Okta fixtures")
struct FixtureContractTests {
    /// The profile the OIE recordings were made with.
    static var oieProfile: [String: Any] {
        [
            "firstName": "John", "lastName": "Doe-Comprehensive", "mobilePhone": "+1-555-123-4567",
            "displayName": "John Doe Comprehensive", "nickName": "JohnnyC",
            "login": "John.Doe-Comprehensive@example.com", "email": "John.Doe-Comprehensive@example.com",
        ]
    }

    static func expectSameKeys(
        _ reply: Reply, fixture name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixture = try Fixtures.object("okta-core/\(name)")
        let actual = try reply.object(sourceLocation: sourceLocation)
        let expected = keyPaths(fixture)
        let got = keyPaths(actual)
        #expect(
            got == expected,
            "\(name): missing \(expected.subtracting(got).sorted()), extra \(got.subtracting(expected).sorted())",
            sourceLocation: sourceLocation)
    }

    static func createOIEUser(_ api: SandboxClient, activate: Bool) async throws -> Reply {
        try await api.send(
            .post, "/api/v1/users?activate=\(activate)",
            json: ["profile": oieProfile, "credentials": ["password": ["value": "Str0ng-Passw0rd"]]])
    }

    @Test func userStagedOIE() async throws {
        try await withSandbox { api in
            let reply = try await Self.createOIEUser(api, activate: false)
            #expect(reply.status == .ok)
            try Self.expectSameKeys(reply, fixture: "user-staged-create-activate-false-oie.json")
        }
    }

    @Test func userStagedClassic() async throws {
        try await withSandbox(configure: { $0.activationURLStyle = .classic }) { api in
            let reply = try await api.send(
                .post, "/api/v1/users?activate=false",
                json: [
                    "profile": [
                        "firstName": "John", "lastName": "Doe-Activate", "email": "John.Doe-Activate@example.com",
                        "login": "John.Doe-Activate@example.com",
                    ],
                    "credentials": ["password": ["value": "Str0ng-Passw0rd"]],
                ])
            try Self.expectSameKeys(reply, fixture: "user-staged-create-activate-false-classic.json")
            #expect(try reply.object()["statusChanged"] is NSNull, "Classic orgs leave statusChanged null")
        }
    }

    @Test(arguments: [
        (ActivationURLStyle.identityEngine, "user-activate-sendemail-false-oie.json"),
        (.classic, "user-activate-sendemail-false-classic.json"),
    ])
    func userActivate(style: ActivationURLStyle, fixture: String) async throws {
        try await withSandbox(configure: { $0.activationURLStyle = style }) { api in
            let id = try #require(try await Self.createOIEUser(api, activate: false).object()["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/activate?sendEmail=false")
            try Self.expectSameKeys(reply, fixture: fixture)
            // The URL has the same shape as the recording's, on this server.
            let recorded = try #require(try Fixtures.object("okta-core/\(fixture)")["activationUrl"] as? String)
            let recordedPath = recorded.replacingOccurrences(of: "https://test.okta.com", with: "")
            let token = try #require(try reply.object()["activationToken"] as? String)
            let recordedToken = try #require(try Fixtures.object("okta-core/\(fixture)")["activationToken"] as? String)
            let expected = await api.state.orgURL + recordedPath.replacingOccurrences(of: recordedToken, with: token)
            #expect(try reply.object()["activationUrl"] as? String == expected)
        }
    }

    @Test func userActiveGet() async throws {
        try await withSandbox { api in
            let id = try #require(try await Self.createOIEUser(api, activate: true).object()["id"] as? String)
            let reply = try await api.send(.get, "/api/v1/users/\(id)")
            try Self.expectSameKeys(reply, fixture: "user-active-get-oie.json")
        }
    }

    @Test func userSuspendedGet() async throws {
        try await withSandbox { api in
            let id = try #require(try await Self.createOIEUser(api, activate: true).object()["id"] as? String)
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend")
            try Self.expectSameKeys(try await api.send(.get, "/api/v1/users/\(id)"), fixture: "user-suspended-get-oie.json")
        }
    }

    @Test func authnPasswordReset() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "dade.murphy@example.com")["id"] as? String)
            let token = try await api.activationToken(userId: id)
            let reply = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            try Self.expectSameKeys(reply, fixture: "authn-password-reset-account-activation.json")
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
            try Self.expectSameKeys(reply, fixture: "authn-success.json")
        }
    }

    /// Errors: same keys, and the same code and summary text as recorded.
    static func expectRecordedError(
        _ reply: Reply, fixture name: String, status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reply.status == status, sourceLocation: sourceLocation)
        try expectSameKeys(reply, fixture: name, sourceLocation: sourceLocation)
        let recorded = try Fixtures.object("okta-core/\(name)")
        let body = try reply.object()
        #expect(body["errorCode"] as? String == recorded["errorCode"] as? String, sourceLocation: sourceLocation)
        if name != "error-E0000007-user-not-found.json" {
            #expect(body["errorSummary"] as? String == recorded["errorSummary"] as? String, sourceLocation: sourceLocation)
        }
        let causes = { (value: Any?) in (value as? [[String: String]]) ?? [] }
        #expect(causes(body["errorCauses"]) == causes(recorded["errorCauses"]), sourceLocation: sourceLocation)
    }

    @Test func errorE0000004() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/authn", json: ["token": "bogus"], auth: .none)
            try Self.expectRecordedError(reply, fixture: "error-E0000004-authentication-failed.json", status: .unauthorized)
        }
    }

    @Test func errorE0000007() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/api/v1/users/00usfhrjbkppPBkoY4x6")
            try Self.expectRecordedError(reply, fixture: "error-E0000007-user-not-found.json", status: .notFound)
            let recorded = try Fixtures.object("okta-core/error-E0000007-user-not-found.json")
            #expect(try reply.object()["errorSummary"] as? String == recorded["errorSummary"] as? String)
        }
    }

    @Test func errorE0000038() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "staged@example.com")["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate?sendEmail=false")
            try Self.expectRecordedError(reply, fixture: "error-E0000038-reactivate-staged-user.json", status: .forbidden)
        }
    }

    /// Every status but PROVISIONED and RECOVERY refuses reactivate with the recorded STAGED body.
    @Test(arguments: ["ACTIVE", "SUSPENDED", "DEPROVISIONED"])
    func errorE0000038OtherStatuses(status: String) async throws {
        try await withSandbox { api in
            let id = try await api.registerActiveUser(email: "reactivate@example.com").userId
            switch status {
            case "SUSPENDED": _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend")
            case "DEPROVISIONED": _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/deactivate")
            default: break
            }
            #expect(try await api.send(.get, "/api/v1/users/\(id)").object()["status"] as? String == status)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate?sendEmail=false")
            try Self.expectRecordedError(reply, fixture: "error-E0000038-reactivate-staged-user.json", status: .forbidden)
        }
    }

    @Test func errorE0000047() async throws {
        try await withSandbox(configure: { $0.rateLimits = ["users": 1] }) { api in
            _ = try await api.send(.get, "/api/v1/users")
            let reply = try await api.send(.get, "/api/v1/users")
            try Self.expectRecordedError(reply, fixture: "error-E0000047-rate-limit.json", status: .tooManyRequests)
        }
    }

    @Test func errorE0000079() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "used@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let body: [String: Any] = ["stateToken": stateToken, "newPassword": "Correct-Horse-7"]
            _ = try await api.send(.post, "/api/v1/authn/credentials/reset_password", json: body, auth: .none)
            let reply = try await api.send(.post, "/api/v1/authn/credentials/reset_password", json: body, auth: .none)
            try Self.expectRecordedError(reply, fixture: "error-E0000079-wrong-authn-state.json", status: .forbidden)
        }
    }
}
