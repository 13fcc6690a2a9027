import Foundation
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP listener on 127.0.0.1 that catches the authorization redirect of the browser flow (RFC 8252 §7.3).
///
/// Any local process can reach a loopback port, so nothing but the real redirect may end the wait: a request
/// to the callback path without this login's `state` (or with neither `code` nor `error`) gets a 400 page and
/// the listener keeps waiting until the overall deadline; other paths get a 404. Each connection has a total
/// deadline of its own (`requestTimeout`, never past the overall one) and connections are read side by side,
/// so a client that connects and sends nothing, or drips bytes, is dropped without holding up the browser.
///
/// Plain sockets and `poll`, not a server framework: a handful of requests is all it ever serves, and the CLI
/// must not pay for an event loop on start-up.
public final class LoopbackReceiver: @unchecked Sendable {
    public let port: UInt16
    private let socketFD: Int32

    /// Binds 127.0.0.1:`port` (0 = a free port chosen by the kernel).
    public init(port: UInt16 = 0) throws(IdFlowError) {
        let fd = LoopbackSocket.openStream()
        guard fd >= 0 else {
            throw .localState("cannot open a socket for the loopback redirect: \(LoopbackSocket.errorDescription())")
        }
        // The listener closes each connection first, so its port sits in TIME_WAIT for a minute after a login; a
        // provider that matches the redirect URI exactly needs that same port for the next login at once. Linux still
        // refuses a second listener on a port that is listening, so this only reclaims ports nobody listens on.
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = LoopbackSocket.loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let inUse = errno == EADDRINUSE
            let reason = LoopbackSocket.errorDescription()
            close(fd)
            throw .localState(
                "cannot listen on 127.0.0.1:\(port) for the redirect: \(reason)",
                hint: inUse && port != 0
                    ? "another program listens on port \(port) (another idflow waiting for a sign-in?): stop it and run again. "
                        + "A provider that matches the redirect URI exactly accepts only the port registered for the app; "
                        + "one that follows RFC 8252 §7.3 accepts any, so --port 0 picks a free one"
                    : "choose another --port, or 0 for any free port")
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

    /// Some providers match a loopback redirect URI exactly, port included (against RFC 8252 §7.3): given a random
    /// port they show an error page and never redirect, so the wait runs out with nothing to say why.
    static let timeoutHint =
        "finish the sign-in in the browser sooner, or raise --browser-timeout. If the browser showed an error about the "
        + "redirect URI, the provider matches it exactly: pass the registered one with --redirect-uri (or --port), "
        + "or set redirectUri in the profile"

    /// What the listener tells the browser.
    public struct Reply: Sendable, Equatable {
        public var status: Int
        public var title: String
        public var message: String

        public init(status: Int, title: String, message: String) {
            self.status = status
            self.title = title
            self.message = message
        }
    }

    /// What a request to the callback path means for the wait.
    public enum Verdict: Sendable, Equatable {
        /// The redirect of this login (a code, or the server's error for it): show the page and stop listening.
        case finish(Reply)
        /// Not an answer to this login (forged, stale or malformed): show the page and keep waiting.
        case keepWaiting(Reply)
    }

    /// Waits for the authorization redirect of the login whose `state` is `expectedState` and returns its
    /// code; an `error=` redirect carrying that state throws the OAuth error. Callbacks that are not this
    /// login's answer are refused with 400 (reported to `refused`) and do not end the wait.
    public func waitForRedirect(
        path: String, expectedState: String, timeout: Duration, requestTimeout: Duration = .seconds(5),
        refused: @Sendable @escaping (String) -> Void = { _ in }
    ) async throws(IdFlowError) -> String {
        let parameters = try await waitForRedirectParameters(
            path: path, expectedState: expectedState, timeout: timeout, requestTimeout: requestTimeout, refused: refused)
        return parameters["code"] ?? ""
    }

    /// Waits as `waitForRedirect` does for a redirect carrying `answer` (`code`, or the Identity Engine's
    /// `interaction_code`) or one of the `continuing` errors (`interaction_required`), and returns its parameters.
    public func waitForRedirectParameters(
        path: String, expectedState: String, answer: String = "code", continuing: Set<String> = [], timeout: Duration,
        requestTimeout: Duration = .seconds(5), refused: @Sendable @escaping (String) -> Void = { _ in }
    ) async throws(IdFlowError) -> [String: String] {
        let callback = try await waitForCallback(path: path, timeout: timeout, requestTimeout: requestTimeout) { url in
            let verdict = Self.verdict(for: url, expectedState: expectedState, answer: answer, continuing: continuing)
            if case .keepWaiting(let reply) = verdict { refused("ignored a request to \(path): \(reply.message)") }
            return verdict
        }
        return try AuthorizationResponse.parameters(from: callback, expectedState: expectedState, continuing: continuing)
    }

    /// The page for a callback URL, and whether it ends the wait: only a URL with this login's state and an
    /// answer or an error does.
    static func verdict(for url: String, expectedState: String, answer: String = "code", continuing: Set<String> = []) -> Verdict {
        do throws(IdFlowError) {
            let parameters = try AuthorizationResponse.parameters(from: url, expectedState: expectedState, continuing: continuing)
            guard parameters[answer]?.isEmpty == false || parameters["error"].map(continuing.contains) == true else {
                throw .protocolViolation("the redirect carries neither a \(answer) nor an error")
            }
            return .finish(Reply(status: 200, title: "Signed in", message: "You can close this tab and return to the terminal."))
        } catch {
            if case .oauth = error {
                return .finish(Reply(status: 400, title: "Sign-in failed", message: "\(error.message). You can close this tab."))
            }
            return .keepWaiting(
                Reply(
                    status: 400, title: "Not this sign-in's answer", message: "\(error.message); idflow keeps waiting for its own redirect")
            )
        }
    }

    /// Serves until a request to `path` gets `.finish` from `decide`, and returns its URL
    /// (`http://127.0.0.1:PORT/path?…`); `.timedOut` when `timeout` passes first, `.interrupted` as soon as the
    /// task is cancelled (Ctrl-C: the caller's `Interruption`), so a wait never outlives the one who waits.
    public func waitForCallback(
        path: String, timeout: Duration, requestTimeout: Duration = .seconds(5), decide: @Sendable @escaping (String) -> Verdict
    ) async throws(IdFlowError) -> String {
        let fd = socketFD
        let port = self.port
        let wake = CancellationPipe()
        let result: Result<String, IdFlowError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var server = Server(
                        listener: fd, cancellation: wake.readEnd, port: port, path: path, deadline: ContinuousClock.now + timeout,
                        requestTimeout: requestTimeout, decide: decide)
                    let outcome = server.run()
                    wake.finish()
                    switch outcome {
                    case .callback(let url): continuation.resume(returning: .success(url))
                    case .cancelled:
                        continuation.resume(returning: .failure(.interrupted("interrupted while waiting for the browser redirect")))
                    case .deadline:
                        continuation.resume(
                            returning: .failure(
                                .timedOut(
                                    "no browser redirect arrived on 127.0.0.1:\(port) within \(timeout.components.seconds) s",
                                    hint: Self.timeoutHint)))
                    }
                }
            }
        } onCancel: {
            wake.signal()
        }
        return try result.get()
    }
}

/// Wakes the loopback server's `poll` when the wait is cancelled: a byte written to a pipe it watches. The write
/// end is closed under the lock once the server is done, so a cancellation after that writes nowhere (never to a
/// descriptor number the process has since reused).
private final class CancellationPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Locked<Int32>

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = Locked(ends[1])
    }

    func signal() {
        writeEnd.withLock { fd in
            guard fd >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }

    /// Closes both ends; called once, by the server's thread when it is done.
    func finish() {
        writeEnd.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
        if readEnd >= 0 { close(readEnd) }
    }
}

/// The poll loop behind `waitForCallback`: the listening socket plus every connection whose request head
/// is still arriving, each dropped when its own deadline passes.
private struct Server {
    /// A connection whose request head has not fully arrived.
    struct Connection {
        var fd: Int32
        var head: [UInt8] = []
        var deadline: ContinuousClock.Instant
    }

    static let maximumHeadBytes = LoopbackReceiver.maximumHeadBytes
    /// More connections than this at once and the oldest is dropped, so a flood cannot lock the browser out.
    static let maximumConnections = 16

    /// How `run` ended.
    enum Outcome {
        /// The request that ended the wait, by its URL.
        case callback(String)
        case deadline
        case cancelled
    }

    let listener: Int32
    /// Readable once the wait is cancelled (-1: never).
    let cancellation: Int32
    let port: UInt16
    let path: String
    let deadline: ContinuousClock.Instant
    let requestTimeout: Duration
    let decide: (String) -> LoopbackReceiver.Verdict
    var connections: [Connection] = []

    init(
        listener: Int32, cancellation: Int32, port: UInt16, path: String, deadline: ContinuousClock.Instant, requestTimeout: Duration,
        decide: @escaping (String) -> LoopbackReceiver.Verdict
    ) {
        self.listener = listener
        self.cancellation = cancellation
        self.port = port
        self.path = path
        self.deadline = deadline
        self.requestTimeout = requestTimeout
        self.decide = decide
    }

    /// The callback URL that ended the wait, or why none did.
    mutating func run() -> Outcome {
        defer {
            for connection in connections { close(connection.fd) }
            connections = []
        }
        while true {
            let now = ContinuousClock.now
            guard now < deadline else { return .deadline }
            dropExpired(now)
            // The cancellation pipe last, so the connections' indices in `fds` stay shifted by the listener alone.
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            fds += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: cancellation, events: Int16(POLLIN), revents: 0))
            let wake = connections.map(\.deadline).reduce(deadline, min)
            let millis = Int32(min(max((wake - now).inSeconds * 1000, 1), 1000).rounded(.up))
            guard poll(&fds, nfds_t(fds.count), millis) > 0 else { continue }
            if fds[fds.count - 1].revents != 0 { return .cancelled }
            // Connections first (their indices in `fds` are shifted by the listener), newest first so removal
            // does not move the ones still to be read.
            for index in connections.indices.reversed() where fds[index + 1].revents != 0 {
                if let url = read(at: index) { return .callback(url) }
            }
            if fds[0].revents != 0 { acceptAll() }
        }
    }

    private mutating func dropExpired(_ now: ContinuousClock.Instant) {
        connections.removeAll { connection in
            guard connection.deadline <= now else { return false }
            close(connection.fd)
            return true
        }
    }

    private mutating func acceptAll() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            LoopbackSocket.prepare(client)
            if connections.count >= Self.maximumConnections { close(connections.removeFirst().fd) }
            connections.append(Connection(fd: client, deadline: min(ContinuousClock.now + requestTimeout, deadline)))
        }
    }

    /// Reads what connection `index` has sent; once its head is complete, answers it and closes it.
    /// Returns the callback URL if that request ended the wait.
    private mutating func read(at index: Int) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            switch LoopbackSocket.receive(connections[index].fd, into: &buffer) {
            case .wouldBlock:
                return nil
            case .closed:
                close(connections.remove(at: index).fd)
                return nil
            case .bytes(let count):
                connections[index].head += buffer[0..<count]
                let complete = connections[index].head.firstRange(of: Array("\r\n\r\n".utf8)) != nil
                guard complete || connections[index].head.count > Self.maximumHeadBytes else { continue }
                let connection = connections.remove(at: index)
                defer { close(connection.fd) }
                return answer(connection)
            }
        }
    }

    private func answer(_ connection: Connection) -> String? {
        let (reply, callback) = LoopbackReceiver.answer(head: connection.head, path: path, port: port, decide: decide)
        LoopbackSocket.sendAll(connection.fd, LoopbackReceiver.page(reply))
        return callback
    }
}

extension LoopbackReceiver {
    /// A request head larger than this is not a browser's redirect.
    static let maximumHeadBytes = 16 * 1024

    /// What one connection's request head gets: the page to send back, and the callback URL when it ended the
    /// wait. Any local process or web page can send these bytes, so nothing in them is trusted: only
    /// `GET <path>?…` reaches `decide`.
    static func answer(head: [UInt8], path: String, port: UInt16, decide: (String) -> Verdict) -> (reply: Reply, callback: String?) {
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else {
            return (.init(status: 400, title: "Bad request", message: "This listener only answers the sign-in redirect."), nil)
        }
        let target = String(parts[1])
        guard target.prefix(while: { $0 != "?" && $0 != "#" }) == path else {
            return (.init(status: 404, title: "Not found", message: "This listener only waits for the sign-in redirect."), nil)
        }
        let url = "http://127.0.0.1:\(port)\(target)"
        switch decide(url) {
        case .finish(let reply): return (reply, url)
        case .keepWaiting(let reply): return (reply, nil)
        }
    }

    /// The whole HTTP response for `reply`: a small HTML page whose title and message are escaped, since the
    /// message may quote what the request carried.
    static func page(_ reply: Reply) -> [UInt8] {
        let escape = { (text: String) in
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: ">", with: "&gt;")
        }
        let body = """
            <!doctype html><html><head><meta charset="utf-8"><title>idflow: \(escape(reply.title))</title></head>
            <body><h1>\(escape(reply.title))</h1><p>\(escape(reply.message))</p></body></html>
            """
        let reason =
            switch reply.status {
            case 200: "OK"
            case 404: "Not Found"
            default: "Bad Request"
            }
        let response =
            "HTTP/1.1 \(reply.status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n\r\n\(body)"
        return Array(response.utf8)
    }
}
