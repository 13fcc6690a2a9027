import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

struct UsersRequestsTests {
    let token = Secret("t0ken")

    @Test func createUserPostsTheProfileAsJSONAndIsNotRetried() throws {
        let request = try CreateUserRequest(
            orgURL: Built.org, authorization: .apiToken(token), profile: ["email": "jo@example.com", "login": "jo@example.com"],
            activate: false
        )
        .httpRequest()
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://example.okta.com/api/v1/users?activate=false")
        #expect(request.headers == ["Authorization": "SSWS t0ken", "Accept": "application/json", "Content-Type": "application/json"])
        #expect(try Built.json(request) == ["profile": ["email": "jo@example.com", "login": "jo@example.com"]])
        #expect(!request.isIdempotent)
    }

    @Test func createUserDecodesTheUserAndKeepsTheWholeDocument() throws {
        let body = String(decoding: try Fixtures.data("okta-core/user-staged-create-activate-false-classic.json"), as: UTF8.self)
        let (user, document) = try CreateUserRequest(orgURL: Built.org, authorization: .apiToken(token), profile: [:], activate: false)
            .decode(
                Built.response(200, body))
        #expect(user.status == "STAGED")
        #expect(document["id"] == .string(user.id))
    }

    @Test func getUserEscapesTheLoginAsOneSegmentAndMayBeRetried() throws {
        let request = try GetUserRequest(orgURL: Built.org, authorization: .apiToken(token), user: "jo/x?y@example.com").httpRequest()
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://example.okta.com/api/v1/users/jo%2Fx%3Fy@example.com")
        #expect(request.headers == ["Authorization": "SSWS t0ken", "Accept": "application/json"])
        #expect(request.body == nil)
        #expect(request.isIdempotent)
    }

    @Test func anUnknownUserKeepsOktasBodyWithAHint() throws {
        let body = String(decoding: try Fixtures.data("okta-core/error-E0000007-user-not-found.json"), as: UTF8.self)
        let error = Built.error { () throws(IdFlowError) in
            try GetUserRequest(orgURL: Built.org, authorization: .apiToken(token), user: "nobody").decode(Built.response(404, body))
        }
        guard case .okta(404, let okta, let hint) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(okta.errorCode == "E0000007")
        #expect(hint == "check the id or login; `idflow register` creates users")
    }

    @Test func anUnknownUserWithoutABodyIsNotFound() {
        let error = Built.error { () throws(IdFlowError) in
            try ActivateUserRequest(orgURL: Built.org, authorization: .apiToken(token), userID: "00u1", sendEmail: false).decode(
                Built.response(404, "", headers: [:]))
        }
        #expect(error == .notFound("no user 00u1", hint: "check the id or login; `idflow register` creates users"))
    }

    @Test func activatePostsNoBodyAndIsNotRetried() throws {
        let request = try ActivateUserRequest(orgURL: Built.org, authorization: .apiToken(token), userID: "00u1", sendEmail: true)
            .httpRequest()
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://example.okta.com/api/v1/users/00u1/lifecycle/activate?sendEmail=true")
        #expect(request.headers == ["Authorization": "SSWS t0ken", "Accept": "application/json"])
        #expect(request.body == nil)
        #expect(!request.isIdempotent)
    }
}
