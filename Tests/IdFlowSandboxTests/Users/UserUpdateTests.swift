import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("Users API: update (POST) and replace (PUT)")
struct UserUpdateTests {
    @Test("POST /users/{id} changes only the given profile attributes and answers the full user as GET does")
    func partialUpdate() async throws {
        try await withSandbox { api in
            let created = try await api.createUser(email: "ada@example.com", extraProfile: ["nickName": "Countess"])
            let id = try #require(created["id"] as? String)
            try await api.advanceClock(seconds: 60)
            let reply = try await api.send(.post, "/api/v1/users/\(id)", json: ["profile": ["firstName": "Augusta"]])
            #expect(reply.status == .ok, "\(reply.text)")
            let user = try reply.object()
            let profile = try #require(user["profile"] as? [String: Any])
            #expect(profile["firstName"] as? String == "Augusta")
            #expect(profile["lastName"] as? String == "Lovelace")
            #expect(profile["nickName"] as? String == "Countess")
            #expect(profile["login"] as? String == "ada@example.com")
            #expect(user["lastUpdated"] as? String != created["lastUpdated"] as? String)
            #expect(user["created"] as? String == created["created"] as? String)
            #expect(user["status"] as? String == "STAGED")

            let get = try await api.send(.get, "/api/v1/users/\(id)")
            #expect(keyPaths(try get.object()) == keyPaths(user))
            #expect(get.text == reply.text, "the stored user is what the update answered")
            #expect(
                reply.keysAppearInOrder([
                    "id", "status", "created", "activated", "statusChanged", "lastLogin", "lastUpdated",
                    "passwordChanged", "type", "profile", "credentials", "_links",
                ]))
        }
    }

    @Test("PUT /users/{id} replaces the profile with exactly the one sent")
    func replace() async throws {
        try await withSandbox { api in
            let created = try await api.createUser(email: "grace@example.com", extraProfile: ["nickName": "Amazing"])
            let id = try #require(created["id"] as? String)
            let reply = try await api.send(
                .put, "/api/v1/users/\(id)",
                json: ["profile": ["login": "grace@example.com", "email": "grace@example.com", "firstName": "Grace"]])
            #expect(reply.status == .ok, "\(reply.text)")
            let profile = try #require(try reply.object()["profile"] as? [String: Any])
            #expect(profile["firstName"] as? String == "Grace")
            #expect(profile["lastName"] == nil)
            #expect(profile["nickName"] == nil)
            #expect(profile["mobilePhone"] is NSNull, "base attributes come back null, as on create")
            let get = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect((get["profile"] as? [String: Any])?["lastName"] == nil)
        }
    }

    @Test("PUT validates login and email as create does: E0000001 with one cause per field")
    func replaceValidation() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "val@example.com")["id"] as? String)
            let missing = try await api.send(.put, "/api/v1/users/\(id)", json: ["profile": ["firstName": "Nobody"]])
            #expect(missing.status == .badRequest)
            let error = try missing.oktaError()
            #expect(error.code == "E0000001")
            #expect(error.summary == "Api validation failed: login")
            #expect(error.causes == ["login: The field cannot be left blank", "email: The field cannot be left blank"])

            let shape = try await api.send(
                .put, "/api/v1/users/\(id)", json: ["profile": ["login": "val@example.com", "email": "not-an-email"]])
            #expect(try shape.oktaError().code == "E0000001")
            #expect(try shape.oktaError().causes == ["email: Does not match required pattern"])

            let partial = try await api.send(.post, "/api/v1/users/\(id)", json: ["profile": ["login": "no at sign"]])
            #expect(try partial.oktaError().causes == ["login: Username must be in the form of an email address"])

            // A refused change changes nothing.
            let unchanged = try await api.send(.get, "/api/v1/users/\(id)").object()
            #expect((unchanged["profile"] as? [String: Any])?["login"] as? String == "val@example.com")
        }
    }

    @Test("a login taken by another user (any case) is E0000001; a rename frees the old login")
    func loginUniqueness() async throws {
        try await withSandbox { api in
            try await api.createUser(email: "taken@example.com")
            let id = try #require(try await api.createUser(email: "mine@example.com")["id"] as? String)
            for method in [HTTPRequest.Method.post, .put] {
                let reply = try await api.send(
                    method, "/api/v1/users/\(id)", json: ["profile": ["login": "TAKEN@example.com", "email": "mine@example.com"]])
                #expect(reply.status == .badRequest)
                let error = try reply.oktaError()
                #expect(error.code == "E0000001")
                #expect(error.causes == ["login: An object with this field already exists in the current organization"])
            }
            // Changing the case of one's own login is no conflict.
            let own = try await api.send(.post, "/api/v1/users/\(id)", json: ["profile": ["login": "Mine@example.com"]])
            #expect(own.status == .ok, "\(own.text)")

            let renamed = try await api.send(.post, "/api/v1/users/\(id)", json: ["profile": ["login": "renamed@example.com"]])
            #expect(renamed.status == .ok)
            #expect(try await api.send(.get, "/api/v1/users/renamed%40example.com").object()["id"] as? String == id)
            #expect(try await api.send(.get, "/api/v1/users/mine%40example.com").status == .notFound)
            try await api.createUser(email: "mine@example.com")
        }
    }

    @Test("a password in the credentials is set, subject to the policy, and signs the user in")
    func passwordCredential() async throws {
        try await withSandbox { api in
            let (id, _) = try await api.registerActiveUser(email: "pw@example.com")
            let weak = try await api.send(
                .post, "/api/v1/users/\(id)",
                json: ["profile": [String: String](), "credentials": ["password": ["value": "short"]]] as [String: Any])
            #expect(weak.status == .badRequest)
            #expect(try weak.oktaError().code == "E0000001")
            #expect(try weak.oktaError().summary == "Api validation failed: password")
            #expect(try weak.oktaError().causes.first == "password: Passwords must have at least 8 characters.")

            let reply = try await api.send(
                .post, "/api/v1/users/\(id)", json: ["credentials": ["password": ["value": "New-Secret-42"]]])
            #expect(reply.status == .ok, "\(reply.text)")
            let signIn = try await api.send(
                .post, "/api/v1/authn", json: ["username": "pw@example.com", "password": "New-Secret-42"], auth: .none)
            #expect(signIn.status == .ok)
            let old = try await api.send(
                .post, "/api/v1/authn", json: ["username": "pw@example.com", "password": "Correct-Horse-7"], auth: .none)
            #expect(old.status == .unauthorized)
        }
    }

    @Test("an unknown id is 404 E0000007; without the API token it is 401 E0000011")
    func unknownAndUnauthorized() async throws {
        try await withSandbox { api in
            for method in [HTTPRequest.Method.post, .put] {
                let reply = try await api.send(
                    method, "/api/v1/users/00uMISSING", json: ["profile": ["login": "x@example.com", "email": "x@example.com"]])
                #expect(reply.status == .notFound)
                #expect(try reply.oktaError().code == "E0000007")
                #expect(try reply.oktaError().summary == "Not found: Resource not found: 00uMISSING (User)")
                let anonymous = try await api.send(method, "/api/v1/users/00uMISSING", json: ["profile": [String: String]()], auth: .none)
                #expect(anonymous.status == .unauthorized)
                #expect(try anonymous.oktaError().code == "E0000011")
            }
            let malformed = try await api.send(
                .post, "/api/v1/users/\(try #require(try await api.createUser(email: "m@example.com")["id"] as? String))",
                body: "{nope", contentType: "application/json")
            #expect(try malformed.oktaError().code == "E0000003")
        }
    }
}
