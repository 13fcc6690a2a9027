import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("Authn API")
struct AuthnControllerTests {
    @Test("the registration chain: create → activate → authn token → reset_password → ACTIVE")
    func registrationChain() async throws {
        try await withSandbox { api in
            let created = try await api.createUser(email: "ada@example.com")
            let id = try #require(created["id"] as? String)
            let token = try await api.activationToken(userId: id)

            let redeem = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            #expect(redeem.status == .ok)
            let transaction = try redeem.object()
            let stateToken = try #require(transaction["stateToken"] as? String)
            #expect(stateToken.count == 42 && stateToken.hasPrefix("00"))
            #expect(transaction["status"] as? String == "PASSWORD_RESET")
            #expect(transaction["recoveryType"] as? String == "ACCOUNT_ACTIVATION")
            let embedded = try #require(transaction["_embedded"] as? [String: Any])
            let user = try #require(embedded["user"] as? [String: Any])
            #expect(user["id"] as? String == id)
            let profile = try #require(user["profile"] as? [String: Any])
            #expect(profile["login"] as? String == "ada@example.com")
            #expect(profile["locale"] as? String == "en_US")
            #expect(profile["timeZone"] as? String == "America/Los_Angeles")
            let links = try #require(transaction["_links"] as? [String: Any])
            let next = try #require(links["next"] as? [String: Any])
            #expect(next["name"] as? String == "resetPassword")
            let nextHref = try #require(next["href"] as? String)
            #expect(nextHref == "\(await api.state.orgURL)/api/v1/authn/credentials/reset_password")

            // Follow the link the server gave, as clients must.
            let path = String(nextHref.dropFirst(await api.state.orgURL.count))
            let reset = try await api.send(
                .post, path, json: ["stateToken": stateToken, "newPassword": "Correct-Horse-7"], auth: .none)
            #expect(reset.status == .ok)
            let success = try reset.object()
            #expect(success["status"] as? String == "SUCCESS")
            #expect(success["stateToken"] == nil)
            #expect(success["_links"] == nil)
            let sessionToken = try #require(success["sessionToken"] as? String)
            #expect(sessionToken.hasPrefix("20"))
            #expect(success["expiresAt"] is String)

            let after = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect(after["status"] as? String == "ACTIVE")
            #expect(after["activated"] is String)
            #expect(after["passwordChanged"] is String)
            #expect((after["credentials"] as? [String: Any])?["password"] != nil)

            // The new password signs in.
            let login = try await api.send(
                .post, "/api/v1/authn", json: ["username": "ADA@example.com", "password": "Correct-Horse-7"],
                auth: .none)
            #expect(login.status == .ok)
            #expect(try login.object()["status"] as? String == "SUCCESS")
        }
    }

    @Test(
        "a password breaking any rule is E0000080 with the policy in one cause, as Okta words it",
        arguments: ["Ab1", "ABCDEFG1", "abcdefg1", "Abcdefgh", "Xmarie-curie9", ""])
    func passwordPolicy(password: String) async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "Marie-Curie@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let reply = try await api.send(
                .post, "/api/v1/authn/credentials/reset_password",
                json: ["stateToken": stateToken, "newPassword": password], auth: .none)
            #expect(reply.status == .forbidden)
            let error = try reply.oktaError()
            #expect(error.code == "E0000080")
            #expect(error.summary == "The password does meet the complexity requirements of the current password policy.")
            #expect(
                error.causes == [
                    "Passwords must have at least 8 characters, a lowercase letter, an uppercase letter, a number, no parts of your username"
                ])
            // The transaction survives a rejected password; a good one still works.
            let retry = try await api.send(
                .post, "/api/v1/authn/credentials/reset_password",
                json: ["stateToken": stateToken, "newPassword": "Good-Password-1"], auth: .none)
            #expect(retry.status == .ok)
        }
    }

    @Test("a short login local part is not a banned substring")
    func shortLocalPart() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "al@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let reply = try await api.send(
                .post, "/api/v1/authn/credentials/reset_password",
                json: ["stateToken": stateToken, "newPassword": "Halberd-99"], auth: .none)
            #expect(reply.status == .ok)
        }
    }

    @Test("an activation token is single-use")
    func activationTokenReuse() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "once@example.com")["id"] as? String)
            let token = try await api.activationToken(userId: id)
            _ = try await api.stateToken(activationToken: token)
            let reuse = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none)
            #expect(reuse.status == .unauthorized)
            let error = try reuse.oktaError()
            #expect(error.code == "E0000004")
            #expect(error.summary == "Authentication failed")
            #expect(error.causes.isEmpty)
        }
    }

    @Test("an activation token expires after 7 days of sandbox time")
    func activationTokenExpiry() async throws {
        try await withSandbox { api in
            let first = try #require(try await api.createUser(email: "late@example.com")["id"] as? String)
            let second = try #require(try await api.createUser(email: "early@example.com")["id"] as? String)
            let lateToken = try await api.activationToken(userId: first)
            let earlyToken = try await api.activationToken(userId: second)
            try await api.advanceClock(seconds: 7 * 24 * 3600 - 60)
            _ = try await api.stateToken(activationToken: earlyToken)
            try await api.advanceClock(seconds: 120)
            let expired = try await api.send(.post, "/api/v1/authn", json: ["token": lateToken], auth: .none)
            #expect(expired.status == .unauthorized)
            #expect(try expired.oktaError().code == "E0000004")
        }
    }

    @Test("an unknown activation token is E0000004")
    func unknownActivationToken() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/authn", json: ["token": "nope"], auth: .none)
            #expect(reply.status == .unauthorized)
            #expect(try reply.oktaError().code == "E0000004")
        }
    }

    @Test("a used state token is 403 E0000079 with one cause repeating the summary")
    func stateTokenAfterSuccess() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "twice@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let body: [String: Any] = ["stateToken": stateToken, "newPassword": "Correct-Horse-7"]
            #expect(
                try await api.send(.post, "/api/v1/authn/credentials/reset_password", json: body, auth: .none).status
                    == .ok)
            let again = try await api.send(.post, "/api/v1/authn/credentials/reset_password", json: body, auth: .none)
            #expect(again.status == .forbidden)
            let error = try again.oktaError()
            #expect(error.code == "E0000079")
            #expect(error.summary == "This operation is not allowed in the current authentication state.")
            #expect(error.causes == [error.summary])
        }
    }

    @Test("a stateToken alone reads the transaction and slides its expiry")
    func transactionStateSlides() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "slide@example.com")["id"] as? String)
            let token = try await api.activationToken(userId: id)
            let first = try await api.send(.post, "/api/v1/authn", json: ["token": token], auth: .none).object()
            let stateToken = try #require(first["stateToken"] as? String)
            let firstExpiry = try #require(first["expiresAt"] as? String)

            // Four minutes later the token still works, and its expiry has moved forward.
            try await api.advanceClock(seconds: 240)
            let read = try await api.send(.post, "/api/v1/authn", json: ["stateToken": stateToken], auth: .none)
            #expect(read.status == .ok)
            let readBody = try read.object()
            #expect(readBody["status"] as? String == "PASSWORD_RESET")
            #expect(try #require(readBody["expiresAt"] as? String) > firstExpiry)

            // Another four minutes: 8 in total, alive only because the read extended it.
            try await api.advanceClock(seconds: 240)
            #expect(try await api.send(.post, "/api/v1/authn", json: ["stateToken": stateToken], auth: .none).status == .ok)

            // Six idle minutes kill it.
            try await api.advanceClock(seconds: 360)
            let dead = try await api.send(.post, "/api/v1/authn", json: ["stateToken": stateToken], auth: .none)
            #expect(dead.status == .unauthorized)
            #expect(try dead.oktaError().code == "E0000011")
            #expect(try dead.oktaError().summary == "Invalid token provided")
        }
    }

    @Test("an unknown stateToken is 401 E0000011 on every Authn call")
    func unknownStateToken() async throws {
        try await withSandbox { api in
            for path in ["/api/v1/authn", "/api/v1/authn/credentials/reset_password", "/api/v1/authn/cancel"] {
                let reply = try await api.send(
                    .post, path, json: ["stateToken": "00unknown", "newPassword": "Correct-Horse-7"], auth: .none)
                #expect(reply.status == .unauthorized, "\(path)")
                #expect(try reply.oktaError().code == "E0000011", "\(path)")
            }
        }
    }

    @Test("cancel answers {} and kills the state token")
    func cancel() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "cancel@example.com")["id"] as? String)
            let stateToken = try await api.stateToken(activationToken: try await api.activationToken(userId: id))
            let cancel = try await api.send(.post, "/api/v1/authn/cancel", json: ["stateToken": stateToken], auth: .none)
            #expect(cancel.status == .ok)
            #expect(cancel.text == "{}")
            let reset = try await api.send(
                .post, "/api/v1/authn/credentials/reset_password",
                json: ["stateToken": stateToken, "newPassword": "Correct-Horse-7"], auth: .none)
            #expect(try reset.oktaError().code == "E0000011")
        }
    }

    @Test("wrong password, unknown user and non-ACTIVE user all fail the same way")
    func primaryAuthenticationFailures() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "real@example.com")
            try await api.createUser(email: "staged@example.com", password: "Str0ngPassw0rd")
            for (username, password) in [
                ("real@example.com", "wrong"), ("ghost@example.com", "Correct-Horse-7"),
                ("staged@example.com", "Str0ngPassw0rd"),
            ] {
                let reply = try await api.send(
                    .post, "/api/v1/authn", json: ["username": username, "password": password], auth: .none)
                #expect(reply.status == .unauthorized, "\(username)")
                #expect(try reply.oktaError().code == "E0000004")
                #expect(try reply.oktaError().causes.isEmpty)
            }
        }
    }

    @Test("a session token is single-use and lives five minutes")
    func sessionTokenLifetime() async throws {
        try await withSandbox { api in
            let (userId, sessionToken) = try await api.registerActiveUser(email: "session@example.com")
            let grant = await api.state.consumeSessionToken(sessionToken)
            #expect(grant?.userId == userId)
            #expect(await api.state.consumeSessionToken(sessionToken) == nil, "single-use")

            let login = try await api.send(
                .post, "/api/v1/authn", json: ["username": "session@example.com", "password": "Correct-Horse-7"],
                auth: .none)
            let second = try #require(try login.object()["sessionToken"] as? String)
            try await api.advanceClock(seconds: 301)
            #expect(await api.state.consumeSessionToken(second) == nil, "expired")
        }
    }

    @Test("SUCCESS has the recorded key order and no stateToken")
    func successShape() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "shape@example.com")
            let reply = try await api.send(
                .post, "/api/v1/authn", json: ["username": "shape@example.com", "password": "Correct-Horse-7"],
                auth: .none)
            #expect(reply.keysAppearInOrder(["expiresAt", "status", "sessionToken", "_embedded"]))
            #expect(try reply.object()["stateToken"] == nil)
        }
    }
}

@Suite("Registration over a real socket")
struct LiveRegistrationTests {
    @Test("the registration chain works .live and every href points at the bound server")
    func liveChain() async throws {
        try await withSandbox(.live) { api in
            let orgURL = await api.state.orgURL
            #expect(orgURL.hasPrefix("http://") && !orgURL.hasSuffix(":0"))
            let user = try await api.createUser(email: "live@example.com")
            let selfHref = try #require(((user["_links"] as? [String: Any])?["self"] as? [String: Any])?["href"] as? String)
            #expect(selfHref.hasPrefix(orgURL + "/api/v1/users/00u"))
            let (_, sessionToken) = try await api.registerActiveUser(email: "live2@example.com")
            #expect(await api.state.consumeSessionToken(sessionToken) != nil)
        }
    }
}
