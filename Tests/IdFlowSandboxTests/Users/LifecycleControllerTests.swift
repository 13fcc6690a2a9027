import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("User lifecycle")
struct LifecycleControllerTests {
    @Test("activate with sendEmail=false returns an identity-engine URL and token; the user is PROVISIONED")
    func activateReturnsToken() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "a@example.com")["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/activate?sendEmail=false")
            #expect(reply.status == .ok)
            let body = try reply.object()
            let token = try #require(body["activationToken"] as? String)
            #expect(token.count == 20)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
            let orgURL = await api.state.orgURL
            #expect(body["activationUrl"] as? String == "\(orgURL)/tokens/\(token)/verify")
            #expect(reply.keysAppearInOrder(["activationUrl", "activationToken"]))
            let user = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect(user["status"] as? String == "PROVISIONED")
            #expect(try await api.send(.get, "/sandbox/outbox").array().isEmpty)
        }
    }

    @Test("the classic style writes /welcome/{token}")
    func classicActivationURL() async throws {
        try await withSandbox(configure: { $0.activationURLStyle = .classic }) { api in
            let id = try #require(try await api.createUser(email: "c@example.com")["id"] as? String)
            let body = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/activate?sendEmail=false").object()
            let token = try #require(body["activationToken"] as? String)
            #expect(body["activationUrl"] as? String == "\(await api.state.orgURL)/welcome/\(token)")
        }
    }

    @Test("activate with the default sendEmail=true answers {} and fills the outbox")
    func activateSendsEmail() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "mail@example.com")["id"] as? String)
            let reply = try await api.send(
                .post, "/api/v1/users/\(id)/lifecycle/activate", body: "", contentType: "application/octet-stream")
            #expect(reply.status == .ok)
            #expect(reply.text == "{}")
            let outbox = try await api.send(.get, "/sandbox/outbox").array()
            #expect(outbox.count == 1)
            #expect(outbox.first?["to"] as? String == "mail@example.com")
            let url = try #require(outbox.first?["activationUrl"] as? String)
            #expect(url.hasSuffix("/verify"))
            #expect(Set(outbox.first!.keys) == ["to", "subject", "activationUrl", "sentAt"])
            // The e-mailed token works like a returned one.
            let token = url.components(separatedBy: "/tokens/")[1].replacingOccurrences(of: "/verify", with: "")
            _ = try await api.stateToken(activationToken: token)
        }
    }

    @Test("a user with a password becomes ACTIVE on activation")
    func activateWithPassword() async throws {
        try await withSandbox { api in
            let id = try #require(
                try await api.createUser(email: "pw@example.com", password: "Str0ngPassw0rd")["id"] as? String)
            _ = try await api.activationToken(userId: id)
            let user = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect(user["status"] as? String == "ACTIVE")
            #expect(user["activated"] is String)
        }
    }

    @Test("activating an ACTIVE or PROVISIONED user is 403 E0000016")
    func activateTwice() async throws {
        try await withSandbox { api in
            let provisioned = try #require(try await api.createUser(email: "p@example.com", activate: true)["id"] as? String)
            let again = try await api.send(.post, "/api/v1/users/\(provisioned)/lifecycle/activate?sendEmail=false")
            #expect(again.status == .forbidden)
            #expect(try again.oktaError().code == "E0000016")
            #expect(try again.oktaError().summary == "Activation failed because the user is already active")

            let active = try await api.registerActiveUser(email: "act@example.com").userId
            let reply = try await api.send(.post, "/api/v1/users/\(active)/lifecycle/activate")
            #expect(try reply.oktaError().code == "E0000016")
        }
    }

    @Test("reactivate on a STAGED user is 403 E0000038 with no causes")
    func reactivateStaged() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "s@example.com")["id"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate?sendEmail=false")
            #expect(reply.status == .forbidden)
            let error = try reply.oktaError()
            #expect(error.code == "E0000038")
            #expect(error.summary == "This operation is not allowed in the user's current status.")
            #expect(error.causes.isEmpty)
        }
    }

    @Test("reactivate issues a new token and kills the old one")
    func reactivateReplacesToken() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "r@example.com")["id"] as? String)
            let old = try await api.activationToken(userId: id)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate")
            #expect(reply.status == .ok)
            let new = try #require(try reply.object()["activationToken"] as? String)
            #expect(new != old)
            let stale = try await api.send(.post, "/api/v1/authn", json: ["token": old], auth: .none)
            #expect(stale.status == .unauthorized)
            #expect(try stale.oktaError().code == "E0000004")
            _ = try await api.stateToken(activationToken: new)
        }
    }

    @Test("reactivate?sendEmail=false on a PROVISIONED user answers like activate; only the new token redeems")
    func reactivateShape() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "shape@example.com", activate: true)["id"] as? String)
            let emailed = try await api.send(.get, "/sandbox/outbox").array()
            let emailedURL = try #require(emailed.first?["activationUrl"] as? String)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate?sendEmail=false")
            #expect(reply.status == .ok)
            let body = try reply.object()
            #expect(Set(body.keys) == ["activationUrl", "activationToken"])
            #expect(reply.keysAppearInOrder(["activationUrl", "activationToken"]))
            let token = try #require(body["activationToken"] as? String)
            #expect(token.count == 20)
            #expect(body["activationUrl"] as? String == "\(await api.state.orgURL)/tokens/\(token)/verify")
            #expect(try await api.send(.get, "/api/v1/users/\(id)").object()["status"] as? String == "PROVISIONED")

            // The e-mailed token of the first activation is dead; redeeming it is E0000004.
            let old = emailedURL.components(separatedBy: "/tokens/")[1].replacingOccurrences(of: "/verify", with: "")
            let stale = try await api.send(.post, "/api/v1/authn", json: ["token": old], auth: .none)
            #expect(stale.status == .unauthorized)
            #expect(try stale.oktaError().code == "E0000004")
            _ = try await api.stateToken(activationToken: token)
        }
    }

    @Test("reactivate with sendEmail=true e-mails the new link")
    func reactivateEmails() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "re@example.com")["id"] as? String)
            _ = try await api.activationToken(userId: id)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/reactivate?sendEmail=true")
            #expect(reply.text == "{}")
            #expect(try await api.send(.get, "/sandbox/outbox").array().count == 1)
        }
    }

    @Test("suspend and unsuspend follow the status machine")
    func suspendUnsuspend() async throws {
        try await withSandbox { api in
            let id = try await api.registerActiveUser(email: "sus@example.com").userId
            let suspend = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend")
            #expect(suspend.status == .ok)
            #expect(suspend.text == "{}")
            let suspended = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect(suspended["status"] as? String == "SUSPENDED")
            let links = try #require(suspended["_links"] as? [String: Any])
            #expect(Set(links.keys) == ["schema", "unsuspend", "self", "resetFactors", "type", "deactivate"])

            let again = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/suspend")
            #expect(try again.oktaError().code == "E0000038")

            // A suspended user cannot sign in.
            let login = try await api.send(
                .post, "/api/v1/authn", json: ["username": "sus@example.com", "password": "Correct-Horse-7"],
                auth: .none)
            #expect(login.status == .unauthorized)

            #expect(try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unsuspend").status == .ok)
            #expect(try await api.send(.get, "/api/v1/users/\(id)").object()["status"] as? String == "ACTIVE")
            let unsuspendActive = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/unsuspend")
            #expect(try unsuspendActive.oktaError().code == "E0000038")
        }
    }

    @Test("deactivate answers 200 {}, kills the activation token, and cannot be repeated")
    func deactivate() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "d@example.com")["id"] as? String)
            let token = try await api.activationToken(userId: id)
            let reply = try await api.send(.post, "/api/v1/users/\(id)/lifecycle/deactivate")
            #expect(reply.status == .ok)
            #expect(reply.text == "{}")
            let redeem = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            #expect(try redeem.oktaError().code == "E0000004")
            #expect(try await api.send(.post, "/api/v1/users/\(id)/lifecycle/deactivate").oktaError().code == "E0000038")
            // DEPROVISIONED users can be activated again.
            #expect(try await api.send(.post, "/api/v1/users/\(id)/lifecycle/activate?sendEmail=false").status == .ok)
        }
    }

    @Test("lifecycle on an unknown user is 404 E0000007")
    func unknownUser() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/users/00uMISSING/lifecycle/activate")
            #expect(reply.status == .notFound)
            #expect(try reply.oktaError().summary == "Not found: Resource not found: 00uMISSING (User)")
        }
    }
}
