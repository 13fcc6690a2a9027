import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `register` and `activate` through the Users API.
struct RegisterAndActivateTests {
    @Test func registerSendsActivateFalseAndDefaultsLoginToEmail() async throws {
        let user = #"{"id":"00u1","status":"STAGED","profile":{"login":"jo@example.com","email":"jo@example.com"}}"#
        let transport = ScriptedTransport([.json(200, user)])
        let flow = RegisterUser(
            email: "jo@example.com", firstName: "Jo", attributes: try RegisterUser.parseAttributes(["mobilePhone=+1 555", "title=a=b"]))
        let document = try await flow.run(TestContext.make(transport: transport))
        #expect(document["status"] == "STAGED")
        let sent = try #require(transport.requests.first)
        #expect(sent.url.query == "activate=false")
        #expect(sent.header("Authorization") == "SSWS test-api-token")
        #expect(
            sent.jsonBody == [
                "profile": [
                    "email": "jo@example.com", "login": "jo@example.com", "firstName": "Jo", "mobilePhone": "+1 555", "title": "a=b",
                ]
            ])
    }

    @Test(arguments: [["novalue"], ["=x"], ["a=1", "a=2"], ["email=x@y"]])
    func badAttributesAreUsageErrors(pairs: [String]) {
        #expect(throws: IdFlowError.self) { try RegisterUser.parseAttributes(pairs) }
    }

    @Test func activateLooksUpALoginThenReadsTheStatusBack() async throws {
        let staged = #"{"id":"00u9","status":"STAGED","profile":{"login":"jo@example.com"}}"#
        let provisioned = #"{"id":"00u9","status":"PROVISIONED","profile":{"login":"jo@example.com"}}"#
        let transport = ScriptedTransport([
            .json(200, staged), .json(200, #"{"activationUrl":"https://example.okta.com/tokens/T1/verify","activationToken":"T1"}"#),
            .json(200, provisioned),
        ])
        let result = try await ActivateUser(user: "jo@example.com").run(TestContext.make(transport: transport))
        #expect(
            result
                == .init(
                    userId: "00u9", status: "PROVISIONED", activationToken: "T1", activationUrl: "https://example.okta.com/tokens/T1/verify"
                ))
        #expect(transport.requests[0].url.path == "/api/v1/users/jo@example.com")
        #expect(transport.requests[1].url.path == "/api/v1/users/00u9/lifecycle/activate")
        #expect(transport.requests[1].url.query == "sendEmail=false")
    }

    @Test func anUnknownUserExits5() async throws {
        let body =
            #"{"errorCode":"E0000007","errorSummary":"Not found: Resource not found: nobody@example.com (User)","errorLink":"E0000007","errorId":"oae1","errorCauses":[]}"#
        let transport = ScriptedTransport([.json(404, body)])
        do {
            _ = try await ActivateUser(user: "nobody@example.com").run(TestContext.make(transport: transport))
            Issue.record("expected not found")
        } catch {
            #expect(error.exitStatus == .notFound)
        }
    }
}
