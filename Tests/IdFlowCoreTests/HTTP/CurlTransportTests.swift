import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CurlTransport` against a real server on 127.0.0.1: what goes out, what comes back, and each failure
/// reaching `HTTPClient` as `TransportFailure`s of the kinds it retries and words.
struct CurlTransportTests {
    func echo(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aPostSendsMethodHeadersAndBodyAndReturnsStatusHeadersAndBody() async throws {
        let server = try LocalHTTPServer()
        var request = HTTPRequest(method: "POST", url: server.url("/echo/users?activate=false"))
        request.setHeader("Content-Type", "application/json")
        request.setHeader("Authorization", "SSWS token-1")
        request.body = Data(#"{"profile":{"login":"jo@example.com"}}"#.utf8)
        let response = try await CurlTransport().send(request)
        let data = response.body

        #expect(response.status == 201)
        #expect(response.url == server.url("/echo/users?activate=false"))
        // Found whatever the case the server spelt them in; a repeated header's values joined, as URLSession joined them.
        #expect(response.header("X-Request-Path") == "/echo/users?activate=false")
        #expect(response.header("X-Twice") == "first, second")
        #expect(response.header("content-type") == "application/json")
        let seen = try echo(data)
        #expect(seen["method"] as? String == "POST")
        #expect(seen["path"] as? String == "/echo/users?activate=false")
        #expect(seen["body"] as? String == #"{"profile":{"login":"jo@example.com"}}"#)
        let headers = try #require(seen["headers"] as? [String: String])
        #expect(headers["authorization"] == "SSWS token-1")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["content-length"] == "38")
        #expect(headers["expect"] == nil, "no 100-continue round trip")
    }

    @Test func getDeleteAndAnEmptyPostSendWhatTheirMethodSays() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport()
        let got = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo/get"))).body
        #expect(try echo(got)["method"] as? String == "GET")

        let delete = HTTPRequest(method: "DELETE", url: server.url("/echo/delete"))
        let deleted = try await transport.send(delete).body
        #expect(try echo(deleted)["method"] as? String == "DELETE")

        let post = HTTPRequest(method: "POST", url: server.url("/echo/lifecycle/activate"))
        let posted = try await transport.send(post).body
        let seen = try echo(posted)
        #expect(seen["method"] as? String == "POST")
        #expect((seen["headers"] as? [String: String])?["content-length"] == "0")
    }

    @Test func aCookieTheServerSetsIsNeverSentBack() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport()
        _ = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo/first")))
        let second = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo/second"))).body
        #expect((try echo(second)["headers"] as? [String: String])?["cookie"] == nil)
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        let server = try LocalHTTPServer()
        let response = try await CurlTransport().send(HTTPRequest(method: "GET", url: server.url("/redirect")))
        #expect(response.status == 302)
        #expect(response.header("Location") == "com.example.app:/callback?code=abc")
    }

    @Test func consecutiveRequestsReuseOneConnection() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport()
        for index in 0..<20 {
            let data = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo/\(index)"))).body
            #expect(try echo(data)["path"] as? String == "/echo/\(index)")
        }
        // libcurl closes a connection that has been idle for more than 118 s (CURLOPT_MAXAGE_CONN). A CI run of the
        // whole suite once kept this task waiting that long between two requests, so such a gap may add one
        // connection. Requests that arrived less than 110 s apart left the connection idle for less than that.
        let arrivals = server.arrivals.current
        let longGaps = zip(arrivals, arrivals.dropFirst()).filter { $1 - $0 > .seconds(110) }.count
        #expect(arrivals.count == 20)
        let accepted = server.connectionsAccepted.current
        #expect(accepted >= 1 && accepted <= 1 + longGaps, "\(accepted) connections for 20 requests, \(longGaps) gaps over 110 s")
    }

    /// 64 requests at once (`--concurrency 64`, the most `register --batch` allows): each caller gets the
    /// answer to its own request.
    @Test func sixtyFourConcurrentRequestsEachGetTheirOwnAnswer() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport()
        let paths = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<64 {
                group.addTask {
                    var request = HTTPRequest(method: "POST", url: server.url("/echo/\(index)"))
                    request.body = Data("body-\(index)".utf8)
                    let response = try await transport.send(request)
                    let data = response.body
                    let seen = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                    let matches =
                        seen?["body"] as? String == "body-\(index)"
                        && response.header("X-Request-Path") == "/echo/\(index)"
                    return (index, matches ? seen?["path"] as? String : nil)
                }
            }
            return try await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
        }
        #expect(paths.count == 64)
        for index in 0..<64 { #expect(paths[index] == "/echo/\(index)") }
        #expect(server.connectionsAccepted.current <= CurlTransportTests.maximumConnections)
    }

    static let maximumConnections = 64

    @Test func aRequestOverItsTimeoutFailsAsTimedOut() async throws {
        let server = try LocalHTTPServer()
        var request = HTTPRequest(method: "GET", url: server.url("/slow"))
        request.timeout = .milliseconds(500)
        let error = await #expect(throws: TransportFailure.self) { try await CurlTransport().send(request) }
        #expect(error?.kind == .timedOut)
        // Not a stopwatch (a loaded machine can keep a test's task waiting for a minute and more): the server has
        // not answered yet, so the client gave up at its own timeout rather than noticing it when the answer came.
        #expect(server.slowAnswers.current == 0, "gave up at the 0.5 s timeout, not when the server answered (600 s)")

        let client = HTTPClient(transport: CurlTransport(), timeout: .milliseconds(500), retryPolicy: RetryPolicy(maxRetries: 0))
        let failure = await #expect(throws: IdFlowError.self) { try await client.send(.get(server.url("/slow"))) }
        #expect(failure?.kind == "network")
        #expect(failure?.message.contains("timed out") == true, "\(String(describing: failure?.message))")
    }

    /// A port nothing listens on: `.cannotConnectToHost`, which `RetryPolicy` retries for any method and
    /// `HTTPClient` reports as "connection refused".
    @Test func aRefusedConnectionIsCannotConnectToHost() async throws {
        let port = try Self.closedPort()
        let url = URL(string: "http://127.0.0.1:\(port)/api/v1/users")!
        let error = await #expect(throws: TransportFailure.self) { try await CurlTransport().send(HTTPRequest(method: "GET", url: url)) }
        #expect(error?.kind == .cannotConnectToHost)

        let client = HTTPClient(transport: CurlTransport(), retryPolicy: RetryPolicy(maxRetries: 0))
        let failure = await #expect(throws: IdFlowError.self) { try await client.send(.get(url)) }
        #expect(failure?.message.contains("connection refused") == true, "\(String(describing: failure?.message))")
    }

    /// A CA file that does not exist fails before anything is sent, as a TLS failure naming the file.
    @Test func aMissingCAFileIsATLSFailureNamingTheFile() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport(options: .init(caFile: "/nonexistent/idflow-test-ca.pem"))
        let url = URL(string: "https://127.0.0.1:\(server.port)/echo")!
        let error = await #expect(throws: TransportFailure.self) { try await transport.send(HTTPRequest(method: "GET", url: url)) }
        #expect(error?.kind == .secureConnectionFailed)
        #expect(
            error?.localizedDescription.contains("/nonexistent/idflow-test-ca.pem") == true,
            "\(String(describing: error?.localizedDescription))")

        let client = HTTPClient(transport: transport, retryPolicy: RetryPolicy(maxRetries: 0))
        let failure = await #expect(throws: IdFlowError.self) { try await client.send(.get(url)) }
        #expect(failure?.message.contains("TLS failure") == true, "\(String(describing: failure?.message))")
    }

    /// At exit the loop thread must be done with libcurl before OpenSSL's exit handler frees its locks (a
    /// command once crashed on the way out, after printing its tokens). Ending the loop closes the cached
    /// connection, the thread is gone when the call returns, and the transport takes no more requests.
    @Test func endingBeforeExitClosesTheCachedConnectionAndRefusesLaterRequests() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport()
        let data = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo/kept"))).body
        #expect(try echo(data)["path"] as? String == "/echo/kept")
        #expect(server.connectionsClosedByClient.current == 0, "kept alive for the next request")

        #expect(transport.endBeforeExit(waitingUntil: .now() + 60), "the loop's thread ended")
        for _ in 0..<600 where server.connectionsClosedByClient.current == 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(server.connectionsClosedByClient.current == 1, "the connection is closed, not left to the kernel at exit")

        let later = await #expect(throws: TransportFailure.self) {
            try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo/later")))
        }
        #expect(later?.kind == .cancelled)
        #expect(server.connectionsAccepted.current == 1, "nothing more was sent")
    }

    /// A request still waiting for its answer when the process exits fails as cancelled at once rather than
    /// holding the exit until its server answers.
    @Test func aRequestUnderWayWhenTheLoopEndsFailsAsCancelled() async throws {
        let server = try LocalHTTPServer()
        let transport = CurlTransport()
        // The request may take as long as the server does (600 s): a loaded machine once kept it from reaching the
        // server within the default minute, and the test then saw a timeout instead of the cancellation it is about.
        var slow = HTTPRequest(method: "GET", url: server.url("/slow"))
        slow.timeout = .seconds(600)
        let waiting = Task { [slow] in try await transport.send(slow) }
        for _ in 0..<3000 where server.slowWaiting.current == 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(server.slowWaiting.current == 1, "the request reached the server")

        #expect(transport.endBeforeExit(waitingUntil: .now() + 60), "the loop's thread ended")
        let error = await #expect(throws: TransportFailure.self) { try await waiting.value }
        #expect(error?.kind == .cancelled)
        #expect(server.slowAnswers.current == 0, "ended without waiting for the answer (600 s)")
    }

    @Test func optionsNeverDescribeTheProxyPassword() {
        let options = CurlTransport.Options(
            proxy: "http://user:hunter2@proxy.example:3128", proxyCredentials: .init(username: "user", password: "hunter2"))
        #expect(!"\(options)".contains("hunter2"))
        #expect("\(options)".contains("proxy.example:3128"))
    }

    /// A port that was just free: bound, then closed, so a connection to it is refused.
    static func closedPort() throws -> UInt16 {
        let fd = try RawSocket.stream()
        defer { close(fd) }
        var address = RawSocket.address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw RawSocket.Failure(description: "cannot bind") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: actual.sin_port)
    }
}
