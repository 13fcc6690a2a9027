import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The users API's recovery calls answer with the recorded status codes and shapes (okta-core.md §G): the same key
/// paths as each fixture and, for errors, the same code, text and causes.
@Suite("Users API recovery calls match the recorded Okta fixtures")
struct PasswordLifecycleFixtureContractTests {
    static func activeOIEUser(_ api: SandboxClient) async throws -> String {
        let reply = try await UsersFixtureContractTests.createOIEUser(api, activate: true)
        return try #require(try reply.object()["id"] as? String)
    }

    /// The recorded URL with its host and token replaced by this sandbox's, for comparing shapes.
    static func expectSameURLShape(_ url: String?, fixture: String, key: String, orgURL: String) throws {
        let recorded = try #require(try Fixtures.object("okta-core/\(fixture)")[key] as? String)
        let url = try #require(url)
        let recordedPath = recorded.replacingOccurrences(of: "https://test.okta.com", with: "")
        let recordedToken = try #require(recordedPath.split(separator: "/").last)
        let token = try #require(url.split(separator: "/").last)
        #expect(token.count == recordedToken.count && token.prefix(3) == recordedToken.prefix(3), "\(url) vs \(recorded)")
        #expect(url == orgURL + recordedPath.replacingOccurrences(of: recordedToken, with: token))
    }

    @Test func expirePassword() async throws {
        try await withSandbox { api in
            // The profile of that recording: no displayName or nickName.
            let created = try await api.createUser(
                email: "John.Doe-Expire-Password@example.com", firstName: "John", lastName: "Doe-Expire-Password",
                password: "Str0ng-Passw0rd", activate: true)
            let id = try #require(created["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password")
            #expect(reply.status == .ok)
            try FixtureContract.expectSameKeys(reply, fixture: "user-expire-password-oie.json")
            let links = try #require(try reply.object()["_links"] as? [String: Any])
            let recorded = try #require(try Fixtures.object("okta-core/user-expire-password-oie.json")["_links"] as? [String: Any])
            #expect(Set(links.keys) == Set(recorded.keys))
        }
    }

    @Test func expirePasswordWithTempPassword() async throws {
        try await withSandbox { api in
            let id = try await Self.activeOIEUser(api)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password_with_temp_password")
            #expect(reply.status == .ok)
            try FixtureContract.expectSameKeys(reply, fixture: "user-expire-password-with-temp-password-oie.json")
            let recorded = try #require(
                try Fixtures.object("okta-core/user-expire-password-with-temp-password-oie.json")["tempPassword"] as? String)
            #expect((try reply.object()["tempPassword"] as? String)?.count == recorded.count)
        }
    }

    @Test func resetPasswordSendEmailFalse() async throws {
        try await withSandbox { api in
            let id = try await Self.activeOIEUser(api)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_password?sendEmail=false")
            #expect(reply.status == .ok)
            try FixtureContract.expectSameKeys(reply, fixture: "user-reset-password-sendemail-false-oie.json")
            try Self.expectSameURLShape(
                try reply.object()["resetPasswordUrl"] as? String, fixture: "user-reset-password-sendemail-false-oie.json",
                key: "resetPasswordUrl", orgURL: await api.state.orgURL)
        }
    }

    @Test func forgotPasswordSendEmailFalse() async throws {
        try await withSandbox { api in
            let id = try await Self.activeOIEUser(api)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/credentials/forgot_password?sendEmail=false")
            #expect(reply.status == .ok)
            try FixtureContract.expectSameKeys(reply, fixture: "user-forgot-password-sendemail-false-oie.json")
            try Self.expectSameURLShape(
                try reply.object()["resetPasswordUrl"] as? String, fixture: "user-forgot-password-sendemail-false-oie.json",
                key: "resetPasswordUrl", orgURL: await api.state.orgURL)
        }
    }

    /// The recorded sequence: a temporary password, then reset_password; the list element shows RECOVERY with
    /// `passwordChanged` from the temporary password and `statusChanged` from the reset.
    @Test func recoveryListElement() async throws {
        try await withSandbox { api in
            let id = try await Self.activeOIEUser(api)
            try await api.advanceClock(seconds: 5)
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/expire_password_with_temp_password")
            let afterTemp = try await api.send(.get, "/api/v1/users/\(id)").object()
            try await api.advanceClock(seconds: 5)
            _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reset_password?sendEmail=false")
            let list = try await api.send(.get, "/api/v1/users?filter=status%20eq%20%22RECOVERY%22")
            let element = try #require(try list.array().first)
            let recorded = try Fixtures.object("okta-core/user-recovery-list-element-oie.json")
            #expect(keyPaths(element) == keyPaths(recorded))
            #expect(element["status"] as? String == "RECOVERY")
            #expect(element["passwordChanged"] as? String == afterTemp["passwordChanged"] as? String)
            #expect(element["statusChanged"] as? String != afterTemp["statusChanged"] as? String)
            #expect(element["statusChanged"] as? String == element["lastUpdated"] as? String)
        }
    }

    /// The documented `filter=status eq "LOCKED_OUT"` answer, for a user locked by wrong passwords.
    @Test func lockedOutListElement() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxAttempts = 2 }) { api in
            let created = try await api.createUser(
                email: "johnrichards@example.com", firstName: "John", lastName: "Richards", password: "Str0ng-Passw0rd", activate: true)
            let id = try #require(created["id"] as? String)
            try await api.failSignIns("johnrichards@example.com", 2)
            let list = try await api.send(.get, "/api/v1/users?filter=status%20eq%20%22LOCKED_OUT%22")
            let elements = try list.array()
            #expect(elements.map { $0["id"] as? String } == [id])
            let recorded = try #require(
                try JSONSerialization.jsonObject(with: Fixtures.data("okta-core/user-locked-out-list-filter-oas.json")) as? [[String: Any]])
            #expect(keyPaths(try #require(elements.first)) == keyPaths(try #require(recorded.first)))
            #expect(elements.first?["statusChanged"] as? String == elements.first?["lastUpdated"] as? String)
        }
    }

    @Test func errorE0000032() async throws {
        try await withSandbox { api in
            let id = try await Self.activeOIEUser(api)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unlock")
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000032-unlock-not-locked.json", status: .forbidden)
        }
    }

    /// The unrecorded refusals answer with the recorded E0000038 body (okta-core.md §G's choice).
    @Test(arguments: ["suspend", "unsuspend", "expire_password"])
    func errorE0000038(operation: String) async throws {
        try await withSandbox { api in
            let id = try await Self.activeOIEUser(api)
            if operation != "unsuspend" { _ = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend") }
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/\(operation)")
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000038-reactivate-staged-user.json", status: .forbidden)
        }
    }

    @Test(arguments: ["unlock", "expire_password", "reset_password", "reset_factors"])
    func errorE0000007(operation: String) async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/users/00usfhrjbkppPBkoY4x6/lifecycle/\(operation)")
            try FixtureContract.expectRecordedError(reply, fixture: "error-E0000007-user-not-found.json", status: .notFound)
        }
    }
}
