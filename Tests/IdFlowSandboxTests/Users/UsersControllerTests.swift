import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("Users API")
struct UsersControllerTests {
    @Test("create without password, activate=false → STAGED with the recorded shape")
    func createStaged() async throws {
        try await withSandbox { api in
            let reply = try await api.send(
                .post, "/api/v1/users?activate=false",
                json: ["profile": ["firstName": "Ada", "lastName": "Lovelace", "email": "Ada@Example.com"]])
            #expect(reply.status == .ok)
            #expect(reply.header("Content-Type") == "application/json;charset=UTF-8")
            let user = try reply.object()
            let id = try #require(user["id"] as? String)
            #expect(id.hasPrefix("00u") && id.count == 20)
            #expect(user["status"] as? String == "STAGED")
            #expect(user["passwordChanged"] is NSNull)
            #expect(user["activated"] is NSNull)
            let profile = try #require(user["profile"] as? [String: Any])
            #expect(profile["login"] as? String == "Ada@Example.com", "login defaults to email")
            #expect(profile["mobilePhone"] is NSNull)
            #expect(profile["secondEmail"] is NSNull)
            let type = try #require(user["type"] as? [String: Any])
            #expect((type["id"] as? String)?.hasPrefix("oty") == true)
            let created = try #require(user["created"] as? String)
            #expect(created.hasSuffix(".000Z") && created.count == 24)
            let credentials = try #require(user["credentials"] as? [String: Any])
            #expect(credentials["password"] == nil, "no password → no password credential")
            let links = try #require(user["_links"] as? [String: Any])
            #expect(Set(links.keys) == ["schema", "activate", "self", "resetFactors", "type"])
            #expect(
                reply.keysAppearInOrder([
                    "id", "status", "created", "activated", "statusChanged", "lastLogin", "lastUpdated",
                    "passwordChanged", "type", "profile", "credentials", "_links",
                ]))
        }
    }

    @Test(
        "the credentials × activate matrix",
        arguments: [
            (false, false, "STAGED"), (false, true, "PROVISIONED"), (true, false, "STAGED"), (true, true, "ACTIVE"),
        ])
    func statusMatrix(withPassword: Bool, activate: Bool, expected: String) async throws {
        try await withSandbox { api in
            let user = try await api.createUser(
                email: "matrix@example.com", password: withPassword ? "Str0ngPassw0rd" : nil, activate: activate)
            #expect(user["status"] as? String == expected)
            #expect((user["passwordChanged"] is NSNull) == !withPassword)
            let outbox = try await api.send(.get, "/sandbox/outbox").array()
            #expect(outbox.count == (activate ? 1 : 0), "activate=true e-mails the user")
        }
    }

    @Test("activate defaults to true")
    func activateDefaultsToTrue() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/users", json: ["profile": ["email": "d@example.com"]])
            #expect(try reply.object()["status"] as? String == "PROVISIONED")
        }
    }

    @Test("extra profile attributes are echoed, in Okta's order")
    func profileEcho() async throws {
        try await withSandbox { api in
            let user = try await api.createUser(
                email: "p@example.com", extraProfile: ["nickName": "Ada", "mobilePhone": "+1-555", "zz": 3])
            let profile = try #require(user["profile"] as? [String: Any])
            #expect(profile["nickName"] as? String == "Ada")
            #expect(profile["mobilePhone"] as? String == "+1-555")
            #expect(profile["zz"] as? Int == 3)
        }
    }

    @Test("login must look like an e-mail address")
    func invalidLogin() async throws {
        try await withSandbox { api in
            let reply = try await api.send(
                .post, "/api/v1/users", json: ["profile": ["email": "a@example.com", "login": "not-an-email"]])
            #expect(reply.status == .badRequest)
            let error = try reply.oktaError()
            #expect(error.code == "E0000001")
            #expect(error.summary == "Api validation failed: login")
            #expect(error.causes == ["login: Username must be in the form of an email address"])
        }
    }

    @Test("a missing or malformed email is E0000001 on email")
    func invalidEmail() async throws {
        try await withSandbox { api in
            let missing = try await api.send(.post, "/api/v1/users", json: ["profile": ["login": "a@example.com"]])
            #expect(missing.status == .badRequest)
            #expect(try missing.oktaError().summary == "Api validation failed: email")
            #expect(try missing.oktaError().causes == ["email: The field cannot be left blank"])

            let malformed = try await api.send(
                .post, "/api/v1/users", json: ["profile": ["email": "nope", "login": "a@example.com"]])
            #expect(try malformed.oktaError().summary == "Api validation failed: email")
        }
    }

    @Test("a duplicate login (any case) is rejected")
    func duplicateLogin() async throws {
        try await withSandbox { api in
            try await api.createUser(email: "dup@example.com")
            let reply = try await api.send(.post, "/api/v1/users", json: ["profile": ["email": "DUP@example.com"]])
            #expect(reply.status == .badRequest)
            let error = try reply.oktaError()
            #expect(error.code == "E0000001")
            #expect(error.summary == "Api validation failed: login")
            #expect(error.causes == ["login: An object with this field already exists in the current organization"])
        }
    }

    @Test("a weak password at creation gets one cause per failed rule")
    func weakPasswordAtCreation() async throws {
        try await withSandbox { api in
            let reply = try await api.send(
                .post, "/api/v1/users",
                json: ["profile": ["email": "weak@example.com"], "credentials": ["password": ["value": "short"]]])
            #expect(reply.status == .badRequest)
            let error = try reply.oktaError()
            #expect(error.summary == "Api validation failed: password")
            #expect(
                error.causes == [
                    "password: Passwords must have at least 8 characters.",
                    "password: Passwords must have at least one uppercase letter.",
                    "password: Passwords must have at least one number.",
                ])
        }
    }

    @Test("a body that is not JSON is E0000003")
    func malformedBody() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.post, "/api/v1/users", body: "{not json", contentType: "application/json")
            #expect(reply.status == .badRequest)
            #expect(try reply.oktaError().code == "E0000003")
            #expect(try reply.oktaError().summary == "The request body was not well-formed.")
        }
    }

    @Test("get by id and by login (case-insensitive, percent-encoded)")
    func getByIdAndLogin() async throws {
        try await withSandbox { api in
            let created = try await api.createUser(email: "Grace.Hopper@example.com")
            let id = try #require(created["id"] as? String)
            let byID = try await api.send(.get, "/api/v1/users/\(id)")
            #expect(byID.status == .ok)
            #expect(try byID.object()["id"] as? String == id)
            let byLogin = try await api.send(.get, "/api/v1/users/grace.hopper%40example.com")
            #expect(byLogin.status == .ok)
            #expect(try byLogin.object()["id"] as? String == id)
        }
    }

    @Test("an unknown user is 404 E0000007 naming the id")
    func unknownUser() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/api/v1/users/00uNOPE")
            #expect(reply.status == .notFound)
            let error = try reply.oktaError()
            #expect(error.code == "E0000007")
            #expect(error.summary == "Not found: Resource not found: 00uNOPE (User)")
            #expect(error.causes.isEmpty)
        }
    }

    @Test("delete: first call deactivates, second deletes, then 404")
    func deleteTwice() async throws {
        try await withSandbox { api in
            let id = try #require(try await api.createUser(email: "gone@example.com")["id"] as? String)
            let first = try await api.send(.delete, "/api/v1/users/\(id)")
            #expect(first.status == .noContent)
            #expect(first.text.isEmpty)
            #expect(try await api.send(.get, "/api/v1/users/\(id)").object()["status"] as? String == "DEPROVISIONED")
            #expect(try await api.send(.delete, "/api/v1/users/\(id)").status == .noContent)
            #expect(try await api.send(.get, "/api/v1/users/\(id)").status == .notFound)
            #expect(try await api.send(.delete, "/api/v1/users/\(id)").status == .notFound)
        }
    }

    @Test("list: items carry only _links.self; DEPROVISIONED users are left out unless asked for")
    func listShape() async throws {
        try await withSandbox { api in
            try await api.createUser(email: "one@example.com")
            let two = try #require(try await api.createUser(email: "two@example.com")["id"] as? String)
            _ = try await api.send(.post, "/api/v1/users/\(two)/lifecycle/deactivate")
            let list = try await api.send(.get, "/api/v1/users").array()
            #expect(list.count == 1)
            #expect(list.first?["_links"] as? [String: [String: String]] != nil)
            #expect((list.first?["_links"] as? [String: Any]).map { Array($0.keys) } == ["self"])
            let deprovisioned = try await api.send(.get, "/api/v1/users?filter=status%20eq%20%22DEPROVISIONED%22").array()
            #expect(deprovisioned.map { $0["id"] as? String } == [two])
        }
    }

    @Test("search and filter: eq on login and status, joined with and")
    func searchAndFilter() async throws {
        try await withSandbox { api in
            try await api.createUser(email: "alice@example.com")
            try await api.createUser(email: "bob@example.com", password: "Str0ngPassw0rd", activate: true)
            try await api.createUser(email: "carol@example.com")

            let byLogin = try await api.send(
                .get, "/api/v1/users?search=" + formEscape("profile.login eq \"BOB@example.com\"")
            ).array()
            #expect(byLogin.compactMap { ($0["profile"] as? [String: Any])?["login"] as? String } == ["bob@example.com"])

            let staged = try await api.send(.get, "/api/v1/users?filter=" + formEscape("status eq \"STAGED\"")).array()
            #expect(staged.count == 2)

            let both = try await api.send(
                .get,
                "/api/v1/users?search="
                    + formEscape("status eq \"STAGED\" and profile.email eq \"carol@example.com\"")
            ).array()
            #expect(both.count == 1)

            let bad = try await api.send(.get, "/api/v1/users?search=" + formEscape("profile.login equals 1"))
            #expect(bad.status == .badRequest)
            #expect(try bad.oktaError().code == "E0000031")
        }
    }

    @Test("q matches a prefix of login, email, first or last name")
    func quickSearch() async throws {
        try await withSandbox { api in
            try await api.createUser(email: "x1@example.com", firstName: "Margaret", lastName: "Hamilton")
            try await api.createUser(email: "x2@example.com", firstName: "Grace", lastName: "Hopper")
            let found = try await api.send(.get, "/api/v1/users?q=ham").array()
            #expect(found.count == 1)
            #expect(try await api.send(.get, "/api/v1/users?q=x").array().count == 2)
        }
    }

    @Test("paging with limit and after follows the Link rel=next header")
    func paging() async throws {
        try await withSandbox { api in
            for index in 0..<5 { try await api.createUser(email: "page\(index)@example.com") }
            var seen: [String] = []
            var path: String? = "/api/v1/users?limit=2"
            var pages = 0
            while let current = path {
                let reply = try await api.send(.get, current)
                #expect(reply.status == .ok)
                seen += try reply.array().compactMap { ($0["profile"] as? [String: Any])?["email"] as? String }
                pages += 1
                let next = reply.headerValues("Link").first { $0.hasSuffix("rel=\"next\"") }
                path = next.map { link in
                    let url = String(link.dropFirst().prefix { $0 != ">" })
                    return String(url[url.range(of: "/api/v1/users")!.lowerBound...])
                }
            }
            #expect(pages == 3)
            #expect(seen == (0..<5).map { "page\($0)@example.com" })
        }
    }

    @Test("management calls need a valid SSWS token (with or without the space)")
    func apiToken() async throws {
        try await withSandbox { api in
            let missing = try await api.send(.get, "/api/v1/users", auth: .none)
            #expect(missing.status == .unauthorized)
            #expect(try missing.oktaError().code == "E0000011")
            #expect(try missing.oktaError().summary == "Invalid token provided")
            let wrong = try await api.send(.get, "/api/v1/users", auth: .header("SSWS 00wrong"))
            #expect(wrong.status == .unauthorized)
            let bearer = try await api.send(.get, "/api/v1/users", auth: .header("Bearer \(api.apiToken)"))
            #expect(bearer.status == .unauthorized)
            let noSpace = try await api.send(.get, "/api/v1/users", auth: .header("SSWS\(api.apiToken)"))
            #expect(noSpace.status == .ok)
        }
    }

    @Test("a configured API token is used as given")
    func configuredToken() async throws {
        try await withSandbox(configure: { $0.apiToken = "00configured" }) { api in
            #expect(api.apiToken == "00configured")
            let reply = try await api.send(.get, "/api/v1/users", auth: .header("SSWS 00configured"))
            #expect(reply.status == .ok)
        }
    }
}
