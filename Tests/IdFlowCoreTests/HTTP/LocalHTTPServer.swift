import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for transport tests: keep-alive connections, one thread each, and a
/// count of the connections it accepted (so a test can tell whether a client reused one).
///
/// Routes: `/echo…` answers 200 with a JSON document of what arrived (method, path, headers, body), a header
/// sent twice and a cookie; `/redirect` answers 302 with a `Location` in a custom scheme; `/slow` waits
/// 600 s before answering (counted in `slowWaiting` meanwhile) and then counts itself in `slowAnswers`, so a
/// test can tell a client that gave up on time from one that noticed only when the answer came. That long because a test's task can itself wait a long
/// time to run again: a CI run of the whole suite once kept every task of this process waiting about 90 s.
final class LocalHTTPServer: @unchecked Sendable {
    let port: UInt16
    let connectionsAccepted = Locked(0)
    let slowAnswers = Locked(0)
    let slowWaiting = Locked(0)
    /// When each request had arrived whole, in order.
    let arrivals = Locked<[ContinuousClock.Instant]>([])
    /// Connections the client closed (the server saw end of file), as opposed to ones still open or idle.
    let connectionsClosedByClient = Locked(0)
    private let listener: Int32

    init() throws {
        (listener, port) = try RawSocket.listener()
        let fd = listener
        let counter = connectionsAccepted
        let (slowAnswers, slowWaiting, closed, arrivals) = (slowAnswers, slowWaiting, connectionsClosedByClient, arrivals)
        RawSocket.acceptConnections(on: fd, accepted: { counter.withLock { $0 += 1 } }) { client in
            Self.serve(client, slowAnswers: slowAnswers, slowWaiting: slowWaiting, arrivals: arrivals)
            closed.withLock { $0 += 1 }
        }
    }

    deinit {
        RawSocket.stopAccepting(listener)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Answers requests on one connection until the client closes it.
    private static func serve(
        _ client: Int32, slowAnswers: Locked<Int>, slowWaiting: Locked<Int>, arrivals: Locked<[ContinuousClock.Instant]>
    ) {
        defer { close(client) }
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            while pending.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                let count = recv(client, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                pending += buffer[0..<count]
            }
            let headEnd = pending.firstRange(of: Array("\r\n\r\n".utf8))!
            let head = String(decoding: pending[..<headEnd.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<headEnd.upperBound)
            var lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst().split(separator: " ")
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = headers["content-length"].flatMap(Int.init) ?? 0
            while pending.count < length {
                let count = recv(client, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                pending += buffer[0..<count]
            }
            let body = Array(pending[..<length])
            arrivals.withLock { $0.append(.now) }
            pending.removeSubrange(..<length)
            let method = String(requestLine[0])
            let path = String(requestLine[1])
            let slow = path.hasPrefix("/slow")
            if slow { slowWaiting.withLock { $0 += 1 } }
            let reply = answer(method: method, path: path, headers: headers, body: body)
            if slow { slowAnswers.withLock { $0 += 1 } }
            guard RawSocket.write(client, reply) else { return }
        }
    }

    private static func answer(method: String, path: String, headers: [String: String], body: [UInt8]) -> String {
        if path.hasPrefix("/redirect") {
            return "HTTP/1.1 302 Found\r\nLocation: com.example.app:/callback?code=abc\r\nContent-Length: 0\r\n\r\n"
        }
        if path.hasPrefix("/slow") {
            Thread.sleep(forTimeInterval: 600)
        }
        let document: [String: Any] = ["method": method, "path": path, "headers": headers, "body": String(decoding: body, as: UTF8.self)]
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), as: UTF8.self)
        return "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Request-Path: \(path)\r\nX-Twice: first\r\nX-Twice: second\r\n"
            + "Set-Cookie: session=s3cr3t; Path=/\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
    }
}
