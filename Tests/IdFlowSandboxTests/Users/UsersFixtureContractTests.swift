import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The Users API speaks the recorded shapes: for each fixture, the sandbox's answer to the same request has
/// the same key paths (recursively) and, for errors, the same code and text.
@Suite("Users API responses match the recorded Okta fixtures")
struct UsersFixtureContractTests {
    /// The profile the OIE recordings were made with.
    static var oieProfile: [String: Any] {
        [
            "firstName": "John", "lastName": "Doe-Comprehensive", "mobilePhone": "+1-555-123-4567",
            "displayName": "John Doe Comprehensive", "nickName": "JohnnyC",
            "login": "John.Doe-Comprehensive@example.com", "email": "John.Doe-Comprehensive@example.com",
        ]
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
            try FixtureContract.expectSameKeys(reply, fixture: "user-staged-create-activate-false-oie.json")
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
            try FixtureContract.expectSameKeys(reply, fixture: "user-staged-create-activate-false-classic.json")
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
            try FixtureContract.expectSameKeys(reply, fixture: fixture)
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
            try FixtureContract.expectSameKeys(reply, fixture: "user-active-get-oie.json")
        }
    }

    @Test func userSuspendedGet() async throws {
        try await withSandbox { api in
            let id = try #require(try await Self.createOIEUser(api, activate: true).object()["id"] as? String)
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend")
            try FixtureContract.expectSameKeys(try await api.send(.get, "/api/v1/users/\(id)"), fixture: "user-suspended-get-oie.json")
        }
    }

    @Test func errorE0000007() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/api/v1/users/00usfhrjbkppPBkoY4x6")
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000007-user-not-found.json", status: .notFound)
            let recorded = try Fixtures.object("okta-core/error-E0000007-user-not-found.json")
            #expect(try reply.object()["errorSummary"] as? String == recorded["errorSummary"] as? String)
        }
    }

    @Test func errorE0000038() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "staged@example.com")["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate?sendEmail=false")
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000038-reactivate-staged-user.json", status: .forbidden)
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
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000038-reactivate-staged-user.json", status: .forbidden)
        }
    }

    @Test func errorE0000047() async throws {
        // The window runs on the sandbox clock, frozen here: it cannot end between the requests, however slow.
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.rateLimits = ["users": 1]
        }) { api in
            _ = try await api.send(.get, "/api/v1/users")
            let reply = try await api.send(.get, "/api/v1/users")
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000047-rate-limit.json", status: .tooManyRequests)
        }
    }

}
