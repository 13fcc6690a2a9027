import Foundation
import Testing

@testable import IdFlowSandbox

/// The directory's indexes: creating, signing in and listing must not scan or sort every user.
@Suite("User directory indexes")
struct UserDirectoryTests {
    static func record(_ index: Int, status: UserStatus = .staged) -> UserRecord {
        UserRecord(
            id: "00u\(index)", status: status, created: Date(), activated: nil, statusChanged: nil, lastLogin: nil,
            lastUpdated: Date(), passwordChanged: nil, password: nil,
            profile: ["login": .string("User\(index)@Example.com"), "email": .string("user\(index)@example.com")],
            activationToken: nil)
    }

    @Test("a page looks at the users it returns plus those it skips, not at every user")
    func pageCost() {
        var directory = UserDirectory()
        for index in 0..<10_000 { directory["00u\(index)"] = Self.record(index) }
        var looked = 0
        let page = directory.page(after: "00u5000", limit: 10) { _ in
            looked += 1
            return true
        }
        #expect(page.users.map(\.id) == (5001...5010).map { "00u\($0)" })
        #expect(page.next == "00u5010")
        #expect(looked == 11, "10 for the page and 1 to know a next page exists")

        looked = 0
        let odd = directory.page(after: nil, limit: 3) { user in
            looked += 1
            return Int(user.id.dropFirst(3))! % 2 == 1
        }
        #expect(odd.users.map(\.id) == ["00u1", "00u3", "00u5"])
        #expect(looked == 8)

        looked = 0
        let last = directory.page(after: "00u9998", limit: 10) { _ in
            looked += 1
            return true
        }
        #expect(last.users.map(\.id) == ["00u9999"] && last.next == nil)
        #expect(looked == 1)
    }

    @Test("cursors keep working after deletes, including a cursor naming the deleted user")
    func cursorsAfterDeletes() {
        var directory = UserDirectory()
        for index in 0..<6 { directory["00u\(index)"] = Self.record(index) }
        directory["00u2"] = nil
        directory["00u3"] = nil
        let afterDeleted = directory.page(after: "00u2", limit: 10) { _ in true }
        #expect(afterDeleted.users.map(\.id) == ["00u4", "00u5"])
        let all = directory.page(after: nil, limit: 2) { _ in true }
        #expect(all.users.map(\.id) == ["00u0", "00u1"] && all.next == "00u1")
        #expect(directory.page(after: "00u1", limit: 2) { _ in true }.users.map(\.id) == ["00u4", "00u5"])
        #expect(directory.page(after: "00uUNKNOWN", limit: 2) { _ in true }.users.isEmpty)
        #expect(directory.count == 4)
    }

    @Test("the login index follows create, rename and delete, ignoring case")
    func loginIndex() {
        var directory = UserDirectory()
        directory["00u1"] = Self.record(1)
        #expect(directory.user(login: "user1@example.COM")?.id == "00u1")
        var renamed = directory["00u1"]!
        renamed.profile["login"] = .string("renamed@example.com")
        directory["00u1"] = renamed
        #expect(directory.user(login: "user1@example.com") == nil)
        #expect(directory.user(login: "RENAMED@example.com")?.id == "00u1")
        directory["00u1"]!.lastLogin = Date()
        #expect(directory.user(login: "renamed@example.com")?.lastLogin != nil)
        directory["00u1"] = nil
        #expect(directory.user(login: "renamed@example.com") == nil)
    }

    @Test("20,000 users: each created, found by its login in any case, and listed once across the pages")
    func scale() async throws {
        let state = SandboxState()
        let count = 20_000
        for index in 0..<count {
            _ = try await state.createUser(
                profile: ["email": .string("person\(index)@example.com")], password: nil, activate: false)
        }
        #expect(await state.findUser(login: "PERSON19999@example.com") != nil)
        var query = try UserListQuery(FormParameters("limit=200"))
        var listed = 0
        while true {
            let (page, next) = await state.listUsers(query)
            listed += page.count
            guard let next else { break }
            query.after = next
        }
        #expect(listed == count)
        // No stopwatch here (a loaded machine would fail it): the speed is scripts/bench.sh's bulk figure, and a
        // return to scanning on create and sorting on every page shows there, as it once did (minutes).
    }
}
