import Foundation
import IdFlowCore
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-purpose HTTP/1.1 server on 127.0.0.1 for end-to-end tests that need a second origin (an API that
/// redirects elsewhere, the place it redirects to): it reads each request's head, records it, and answers with
/// what `answer` returns for it, then closes the connection.
public final class TinyHTTPListener: @unchecked Sendable {
    public let port: UInt16
    private let fd: Int32
    private let recorded = Locked<[String]>([])

    /// The heads of the requests received so far (request line and headers, as sent).
    public var requests: [String] { recorded.current }

    public var url: String { "http://127.0.0.1:\(port)" }

    /// `answer` gets a request head and returns the status, headers and body to send.
    public init(answer: @escaping @Sendable (String) -> (status: Int, headers: [String: String], body: String)) throws {
        let listener = try RawSocket.listener()
        fd = listener.fd
        port = listener.port
        let recorded = recorded
        RawSocket.acceptConnections(on: fd) { client in
            defer { close(client) }
            let head = Self.readHead(client)
            recorded.withLock { $0.append(head) }
            let (status, headers, body) = answer(head)
            var response = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in headers { response += "\(name): \(value)\r\n" }
            RawSocket.write(client, response + "\r\n" + body)
        }
    }

    /// Whether any request received carried `name` as a header (case-insensitive).
    public func anyRequestHadHeader(_ name: String) -> Bool {
        requests.contains { head in
            head.split(separator: "\r\n").dropFirst().contains { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        }
    }

    private static func readHead(_ client: Int32) -> String {
        var data = [UInt8]()
        var byte: UInt8 = 0
        while data.count < 65536, recv(client, &byte, 1, 0) == 1 {
            data.append(byte)
            if data.count >= 4, data.suffix(4) == [13, 10, 13, 10] { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    deinit {
        RawSocket.stopAccepting(fd)
    }
}
