import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-shot HTTP listener on 127.0.0.1 that catches the authorization redirect of the browser flow
/// (RFC 8252 §7.3). It answers the first request to the callback path and stops; anything else gets a 404.
///
/// Plain sockets, not a server framework: one request is all it ever serves, and the CLI must not pay for
/// an event loop on start-up.
public final class LoopbackReceiver: @unchecked Sendable {
    public let port: UInt16
    private let socketFD: Int32

    /// Binds 127.0.0.1:`port` (0 = a free port chosen by the kernel).
    public init(port: UInt16 = 0) throws(IdFlowError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .localState("cannot open a socket for the loopback redirect: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .localState(
                "cannot listen on 127.0.0.1:\(port) for the redirect: \(reason)", hint: "choose another --port, or 0 for any free port")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.socketFD = fd
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit {
        close(socketFD)
    }

    /// What the listener tells the browser, decided by the caller after reading the callback.
    public struct Reply: Sendable {
        public var status: Int
        public var title: String
        public var message: String

        public init(status: Int, title: String, message: String) {
            self.status = status
            self.title = title
            self.message = message
        }
    }

    /// Waits for the browser to request `path`; `decide` turns the full callback URL into the page shown.
    /// Returns the callback URL (`http://127.0.0.1:PORT/path?…`).
    public func waitForCallback(path: String, timeout: Duration, decide: @Sendable @escaping (String) -> Reply) async throws(IdFlowError)
        -> String
    {
        let fd = socketFD
        let port = self.port
        let result: Result<String, IdFlowError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Self.serve(fd: fd, port: port, path: path, timeout: timeout, decide: decide))
            }
        }
        return try result.get()
    }

    private static func serve(fd: Int32, port: UInt16, path: String, timeout: Duration, decide: (String) -> Reply) -> Result<
        String, IdFlowError
    > {
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                return .failure(
                    .timedOut(
                        "no browser redirect arrived on 127.0.0.1:\(port) within \(timeout.components.seconds) s",
                        hint: "finish the sign-in in the browser sooner, or raise --browser-timeout"))
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let millis = Int32(min(remaining.inSeconds * 1000, 1000))
            let ready = poll(&pollFD, 1, max(millis, 1))
            if ready <= 0 { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            guard let target = readRequestTarget(client) else { continue }
            let requestPath = String(target.prefix { $0 != "?" })
            guard requestPath == path else {
                respond(client, Reply(status: 404, title: "Not found", message: "This listener only waits for the sign-in redirect."))
                continue
            }
            let url = "http://127.0.0.1:\(port)\(target)"
            respond(client, decide(url))
            return .success(url)
        }
    }

    /// Reads the request head (up to 16 KiB, 5 s) and returns the request target of a GET.
    private static func readRequestTarget(_ client: Int32) -> String? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16384 {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { break }
            head.append(contentsOf: buffer[0..<count])
            if head.range(of: Data("\r\n\r\n".utf8)) != nil { break }
        }
        guard let text = String(data: head, encoding: .utf8), let line = text.split(separator: "\r\n").first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" else { return nil }
        return String(parts[1])
    }

    private static func respond(_ client: Int32, _ reply: Reply) {
        let escape = { (text: String) in
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: ">", with: "&gt;")
        }
        let body = """
            <!doctype html><html><head><meta charset="utf-8"><title>idflow: \(escape(reply.title))</title></head>
            <body><h1>\(escape(reply.title))</h1><p>\(escape(reply.message))</p></body></html>
            """
        let reason = reply.status == 200 ? "OK" : reply.status == 404 ? "Not Found" : "Bad Request"
        let response =
            "HTTP/1.1 \(reply.status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n\r\n\(body)"
        _ = response.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }
}
