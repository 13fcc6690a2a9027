import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("Error bodies and common headers")
struct ErrorResponseTests {
    @Test("an unknown route is 404 E0000007 in Okta's shape (with the API token; without it, 401)")
    func unknownRoute() async throws {
        try await withSandbox { api in
            #expect(try await api.send(.get, "/api/v1/nothing-here", auth: .none).status == .unauthorized)
            let reply = try await api.send(.get, "/api/v1/nothing-here")
            #expect(reply.status == .notFound)
            #expect(reply.header("Content-Type") == "application/json;charset=UTF-8")
            let error = try reply.oktaError()
            #expect(error.code == "E0000007")
            #expect(error.summary == "Not found: Resource not found: /api/v1/nothing-here (Route)")
        }
    }

    @Test("a known path with the wrong method is 405 E0000022")
    func wrongMethod() async throws {
        try await withSandbox { api in
            for (method, path) in [
                (HTTPRequest.Method.put, "/api/v1/users"), (.get, "/api/v1/authn"), (.patch, "/api/v1/users/00u1"),
                (.delete, "/api/v1/users/00u1/lifecycle/activate"),
            ] {
                let reply = try await api.send(method, path)
                #expect(reply.status == .methodNotAllowed, "\(method) \(path)")
                #expect(try reply.oktaError().code == "E0000022")
                #expect(try reply.oktaError().summary == "The endpoint does not support the provided HTTP method")
            }
        }
    }

    @Test("every error body has exactly the five Okta keys and a fresh oae… errorId")
    func errorBodyKeys() async throws {
        try await withSandbox { api in
            var errorIDs: Set<String> = []
            for _ in 0..<3 {
                let reply = try await api.send(.get, "/api/v1/users/00uMissing")
                let body = try reply.object()
                #expect(Set(body.keys) == ["errorCode", "errorSummary", "errorLink", "errorId", "errorCauses"])
                #expect(body["errorLink"] as? String == body["errorCode"] as? String)
                #expect(reply.keysAppearInOrder(["errorCode", "errorSummary", "errorLink", "errorId", "errorCauses"]))
                let errorID = try #require(body["errorId"] as? String)
                #expect(errorID.hasPrefix("oae") && errorID.count == 25)
                errorIDs.insert(errorID)
            }
            #expect(errorIDs.count == 3)
        }
    }

    @Test("request ids differ per response")
    func requestIDs() async throws {
        try await withSandbox { api in
            let first = try await api.send(.get, "/api/v1/users").header("x-okta-request-id")
            let second = try await api.send(.get, "/api/v1/users").header("x-okta-request-id")
            #expect(first != nil && first != second)
        }
    }
}
