import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport refuses a body over its cap while it streams in, against a real local server. (`Kind` once named
/// a second transport, URLSession's, measured against libcurl until the stack was settled; libcurl is the one.)
struct ResponseSizeLimitTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case curl
        var testDescription: String { rawValue }

        func transport(cap: Int) -> any HTTPTransport {
            switch self {
            case .curl: CurlTransport(maximumResponseBytes: cap)
            }
        }
    }

    /// Serves one connection: reads the request head, sends `head` and then `bodyBytes` bytes of text
    /// until done or the client hangs up. With `holdAfter`, it stops after that many body bytes and waits
    /// (up to 10 s) for the client to hang up before sending the rest; `hungUpWhileHeld` says whether it did,
    /// which only a client reading the body as it streams in can do.
    final class OneShotServer: @unchecked Sendable {
        let port: UInt16
        let hungUpWhileHeld = Locked<Bool?>(nil)

        init(head: String, bodyBytes: Int, holdAfter: Int? = nil) throws {
            let fd = try RawSocket.stream()
            var address = RawSocket.address(port: 0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(fd, 1) == 0 else { throw RawSocket.Failure(description: "cannot listen") }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            port = UInt16(bigEndian: actual.sin_port)
            let hungUpWhileHeld = self.hungUpWhileHeld
            Thread.detachNewThread {
                defer { close(fd) }
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                defer { close(client) }
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var request = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                    let count = recv(client, &buffer, buffer.count, 0)
                    guard count > 0 else { return }
                    request += buffer[0..<count]
                }
                guard RawSocket.write(client, head) else { return }
                guard RawSocket.write(client, String(repeating: "x", count: holdAfter ?? bodyBytes)) else { return }
                guard let holdAfter else { return }
                var peer = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                let hungUp = poll(&peer, 1, 10_000) == 1 && recv(client, &buffer, buffer.count, 0) <= 0
                hungUpWhileHeld.withLock { $0 = hungUp }
                if !hungUp { RawSocket.write(client, String(repeating: "x", count: bodyBytes - holdAfter)) }
            }
        }

        var url: URL { URL(string: "http://127.0.0.1:\(port)/big")! }
    }

    /// The message of the `.protocolViolation` a transport capped at `cap` bytes throws for `server`'s answer.
    func refusal(from server: OneShotServer, cap: Int, kind: Kind) async throws -> String {
        let error = await #expect(throws: IdFlowError.self) {
            try await kind.transport(cap: cap).send(HTTPRequest(method: "GET", url: server.url))
        }
        guard case .protocolViolation(let message) = error else {
            throw RawSocket.Failure(description: "expected .protocolViolation, got \(String(describing: error))")
        }
        #expect(error?.exitStatus == .server)
        return message
    }

    /// The body is refused while it streams in: the transport hangs up after the first bytes over the cap,
    /// without waiting for the rest (a transport that buffered the whole answer first would wait for it).
    @Test(arguments: Kind.allCases) func aBodyWithoutContentLengthIsCutOffOnceItPassesTheCap(kind: Kind) async throws {
        let server = try OneShotServer(
            head: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n", bodyBytes: 1024 * 1024,
            holdAfter: 128 * 1024)
        let message = try await refusal(from: server, cap: 64 * 1024, kind: kind)
        #expect(message.contains("larger than 65536 bytes"), "\(message)")
        #expect(message.contains("127.0.0.1"), "\(message)")
        let deadline = ContinuousClock.now + .seconds(15)
        while server.hungUpWhileHeld.current == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.hungUpWhileHeld.current == true, "the transport hung up before the server sent the rest of the body")
    }

    @Test(arguments: Kind.allCases) func aDeclaredLengthOverTheCapIsRefusedAndNamesTheCapInMiB(kind: Kind) async throws {
        let server = try OneShotServer(
            head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n", bodyBytes: 2 * 1024 * 1024)
        let message = try await refusal(from: server, cap: 1024 * 1024, kind: kind)
        #expect(message.contains("larger than 1 MiB"), "\(message)")
        #expect(message.contains("2097152"), "\(message)")
    }

    @Test(arguments: Kind.allCases) func aBodyOfExactlyTheCapIsReturnedWhole(kind: Kind) async throws {
        let server = try OneShotServer(head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", bodyBytes: 100_000)
        let response = try await kind.transport(cap: 100_000).send(HTTPRequest(method: "GET", url: server.url))
        let data = response.body
        #expect(response.status == 200)
        #expect(data.count == 100_000)
    }

    /// `HTTPClient` passes the transport's error on as it is: exit 7, not a network failure.
    @Test(arguments: Kind.allCases) func theClientReportsTheLimitAsAServerError(kind: Kind) async throws {
        let server = try OneShotServer(head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", bodyBytes: 4096)
        let client = HTTPClient(transport: kind.transport(cap: 1024), retryPolicy: RetryPolicy(maxRetries: 0))
        let error = await #expect(throws: IdFlowError.self) { try await client.send(.get(server.url)) }
        #expect(error?.exitStatus == .server)
        #expect(error?.kind == "protocol_violation")
    }
}
