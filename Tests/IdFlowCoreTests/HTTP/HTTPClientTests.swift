import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct HTTPClientTests {
    let url = URL(string: "https://example.okta.com/api/v1/users/00u1")!
    let rateLimitBody =
        #"{"errorCode":"E0000047","errorSummary":"API call exceeded rate limit due to too many requests.","errorLink":"E0000047","errorId":"oae1","errorCauses":[]}"#

    func client(_ transport: ScriptedTransport, retries: Int = 3, sleeps: Locked<[Duration]> = Locked([])) -> HTTPClient {
        HTTPClient(
            transport: transport, retryPolicy: RetryPolicy(maxRetries: retries), maxJitter: .zero,
            sleep: { d in sleeps.withLock { $0.append(d) } })
    }

    @Test func waitsUntilTheServersRateLimitResetThenSucceeds() async throws {
        // The server's clock (Date) says 10:00:00; reset is 3 s later. The local clock is irrelevant.
        let transport = ScriptedTransport([
            .json(
                429, rateLimitBody,
                headers: ["Date": "Sat, 21 Nov 2026 10:00:00 GMT", "X-Rate-Limit-Reset": "1795255203", "X-Rate-Limit-Remaining": "0"]),
            .json(200, #"{"ok":true}"#),
        ])
        let sleeps = Locked<[Duration]>([])
        let response = try await client(transport, sleeps: sleeps).send(.get(url))
        #expect(response.status == 200)
        #expect(transport.requests.count == 2)
        #expect(sleeps.current == [.seconds(3)])
    }

    @Test func aPostIsRetriedAfter429BecauseTheServerDidNotActOnIt() async throws {
        let transport = ScriptedTransport([.json(429, rateLimitBody, headers: ["Retry-After": "1"]), .json(200, "{}")])
        let request = try HTTPRequest.json("POST", url, body: ["a": "b"] as [String: String])
        #expect(try await client(transport).send(request).status == 200)
        #expect(transport.requests.count == 2)
    }

    @Test func exhaustingTheRetryBudgetOn429IsRateLimitedExit7() async throws {
        let transport = ScriptedTransport(Array(repeating: .json(429, rateLimitBody, headers: ["Retry-After": "0"]), count: 3))
        await #expect(
            throws: IdFlowError.rateLimited(attempts: 3, body: try JSONDecoder().decode(OktaErrorBody.self, from: Data(rateLimitBody.utf8)))
        ) {
            try await client(transport, retries: 2).send(.get(url))
        }
        #expect(transport.requests.count == 3)
        #expect(IdFlowError.rateLimited(attempts: 3, body: nil).exitStatus == .server)
    }

    @Test func a503IsRetriedForGetButNotForPost() async throws {
        let getTransport = ScriptedTransport([.json(503, "{}"), .json(200, "{}")])
        #expect(try await client(getTransport).send(.get(url)).status == 200)

        let postTransport = ScriptedTransport([.json(503, "{}"), .json(200, "{}")])
        let post = try HTTPRequest.json("POST", url, body: ["a": "b"] as [String: String])
        #expect(try await client(postTransport).send(post).status == 503)
        #expect(postTransport.requests.count == 1)
    }

    @Test func backoffDoublesForServiceUnavailable() async throws {
        let transport = ScriptedTransport([.json(503, "{}"), .json(503, "{}"), .json(503, "{}"), .json(200, "{}")])
        let sleeps = Locked<[Duration]>([])
        _ = try await client(transport, sleeps: sleeps).send(.get(url))
        #expect(sleeps.current == [.milliseconds(500), .seconds(1), .seconds(2)])
    }

    @Test func refusedConnectionIsRetriedEvenForPostThenReportedAsNetworkExit6() async throws {
        let transport = ScriptedTransport(Array(repeating: .failure(TransportFailure(.cannotConnectToHost)), count: 2))
        let post = try HTTPRequest.json("POST", url, body: ["a": "b"] as [String: String])
        do {
            _ = try await client(transport, retries: 1).send(post)
            Issue.record("expected a network error")
        } catch {
            #expect(error.exitStatus == .network)
            #expect(error.message.contains("connection refused"))
        }
        #expect(transport.requests.count == 2)
    }

    @Test func aPostThatTimedOutIsNotRetried() async throws {
        let transport = ScriptedTransport([.failure(TransportFailure(.timedOut)), .json(200, "{}")])
        let post = try HTTPRequest.json("POST", url, body: ["a": "b"] as [String: String])
        await #expect(throws: IdFlowError.self) { try await client(transport).send(post) }
        #expect(transport.requests.count == 1, "the server may have acted on it")
    }

    @Test func plainHTTPToANonLoopbackHostIsRefusedBeforeSending() async throws {
        let transport = ScriptedTransport([])
        do {
            _ = try await client(transport).send(.get(URL(string: "http://example.okta.com/api/v1/users")!))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.exitStatus == .security)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/x", "http://localhost:1/x", "http://[::1]:9/x", "http://127.8.9.10/x", "https://example.com/x",
    ])
    func loopbackAndHTTPSAreAllowed(url: String) throws {
        try TransportSecurity.check(URL(string: url)!)
    }

    @Test(arguments: [
        "http://10.0.0.1/x", "http://localhost.evil.com/x", "http://127.0.0.1.nip.io/x", "http://app.localhost/x",
        "http://localhost.localhost:8/x", "ftp://127.0.0.1/x",
    ])
    func othersAreRefused(url: String) {
        #expect(throws: IdFlowError.self) { try TransportSecurity.check(URL(string: url)!) }
    }

    @Test func aNonJSON502BecomesAReadableServerError() async throws {
        let transport = ScriptedTransport([
            .response(
                status: 502, headers: ["Content-Type": "text/html"], body: Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8))
        ])
        let response = try await client(transport).send(.get(url))
        let error = response.failure()
        #expect(error.exitStatus == .server)
        #expect(error.message.contains("502 Bad Gateway"))
        #expect(error.message.contains("text/html"))
    }

    @Test func aTruncatedSuccessBodyIsAProtocolErrorNotACrash() async throws {
        let transport = ScriptedTransport([.json(200, #"{"id":"00u1","status":"STA"#)])
        let response = try await client(transport).send(.get(url))
        #expect(throws: IdFlowError.self) { try response.decode(OktaUser.self) }
    }

    @Test func sendsUserAgentAndTimeout() async throws {
        let transport = ScriptedTransport([.json(200, "{}")])
        var http = client(transport)
        http.timeout = .seconds(7)
        _ = try await http.send(.get(url))
        let sent = try #require(transport.requests.first)
        #expect(sent.header("User-Agent") == "idflow/\(IdFlowVersion.string)")
        #expect(sent.timeout == .seconds(7))
    }

    @Test func verboseTraceRedactsEverySecret() async throws {
        let lines = Locked<[String]>([])
        let transport = ScriptedTransport([.json(200, #"{"sessionToken":"20SESSION","status":"SUCCESS"}"#)])
        var http = client(transport)
        http.trace = HTTPTrace { line in lines.withLock { $0.append(line) } }
        let request = try HTTPRequest.json(
            "POST", URL(string: "https://example.okta.com/api/v1/authn")!, body: ["username": "jo", "password": "Hunter2!x"],
            headers: ["Authorization": "SSWS 00APITOKEN"])
        _ = try await http.send(request)
        let trace = lines.current.joined(separator: "\n")
        for secret in ["Hunter2!x", "20SESSION", "00APITOKEN"] {
            #expect(!trace.contains(secret), "\(secret) leaked into the trace")
        }
        #expect(trace.contains("POST https://example.okta.com/api/v1/authn"))
        #expect(trace.contains("< 200"))
    }
}
