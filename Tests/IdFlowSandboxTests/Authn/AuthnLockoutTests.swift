import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

/// Wrong passwords lock the account after `passwordPolicy.lockout.maxAttempts`, a right one before that starts the
/// count again, and a locked user's sign-in says so only when the policy shows lockout failures.
@Suite("Authn lockout")
struct AuthnLockoutTests {
    static func lockout(maxAttempts: Int, show: Bool = false, unlock: Bool = true) -> (inout SandboxConfiguration) -> Void {
        {
            $0.passwordPolicy.lockout = LockoutPolicy(maxAttempts: maxAttempts, showLockoutFailures: show, selfServiceUnlock: unlock)
        }
    }

    @Test("maxAttempts wrong passwords in a row lock the user; the right one in between starts the count again")
    func lockAfterMaxAttempts() async throws {
        try await withSandbox(configure: Self.lockout(maxAttempts: 3)) { api in
            let id = try await api.registerActiveUser(email: "count@example.com").userId
            try await api.failSignIns("count@example.com", 2)
            #expect(try await api.authnSignIn("count@example.com").authnStatus == "SUCCESS")
            try await api.failSignIns("count@example.com", 2)
            #expect(try await api.status(of: id) == "ACTIVE", "2 + 2 is not 3 in a row")
            try await api.failSignIns("count@example.com", 1)
            #expect(try await api.status(of: id) == "LOCKED_OUT")
            let locked = try await api.authnSignIn("count@example.com")
            #expect(locked.status == .unauthorized)
            #expect(try locked.oktaError().code == "E0000004", "by default a locked user looks like a wrong password")
        }
    }

    @Test("the default policy locks after 10")
    func defaultTen() async throws {
        try await withSandbox { api in
            let id = try await api.registerActiveUser(email: "ten@example.com").userId
            try await api.failSignIns("ten@example.com", 9)
            #expect(try await api.status(of: id) == "ACTIVE")
            try await api.failSignIns("ten@example.com", 1)
            #expect(try await api.status(of: id) == "LOCKED_OUT")
        }
    }

    @Test("maxAttempts 0 never locks")
    func neverLock() async throws {
        try await withSandbox(configure: Self.lockout(maxAttempts: 0)) { api in
            let id = try await api.registerActiveUser(email: "never@example.com").userId
            try await api.failSignIns("never@example.com", 12)
            #expect(try await api.status(of: id) == "ACTIVE")
        }
    }

    @Test("with showLockoutFailures the locked sign-in is LOCKED_OUT with an unlock link, or only cancel without self-service")
    func showLockout() async throws {
        for unlock in [true, false] {
            try await withSandbox(configure: Self.lockout(maxAttempts: 1, show: true, unlock: unlock)) { api in
                _ = try await api.registerActiveUser(email: "show@example.com")
                try await api.failSignIns("show@example.com", 1)
                let reply = try await api.authnSignIn("show@example.com", password: "anything")
                #expect(reply.status == .ok)
                let body = try reply.object()
                #expect(body["status"] as? String == "LOCKED_OUT")
                #expect(body["stateToken"] == nil)
                let links = try #require(body["_links"] as? [String: Any])
                #expect((links["next"] != nil) == unlock)
                if unlock { #expect(try reply.linkHref("next") == "\(await api.state.orgURL)/api/v1/authn/recovery/unlock") }
            }
        }
    }
}
