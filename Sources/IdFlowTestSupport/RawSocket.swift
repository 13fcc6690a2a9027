import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain blocking TCP sockets on 127.0.0.1 for tests that must control every byte: a client that connects
/// and says nothing, one that drips its request, and a server that sends an answer of a chosen shape.
public enum RawSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public static func stream() throws -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // Generous: on a loaded 2-core machine the listener under test may start minutes after the client has
        // connected and sent (the kernel queues both), and an early timeout would read as "no answer". 120 s was
        // not enough once: a CI run of the whole suite kept the task that starts the listener waiting longer.
        var timeout = timeval(tv_sec: 600, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    public static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket listening on 127.0.0.1 with a port the kernel chose, and that port.
    public static func listener() throws -> (fd: Int32, port: UInt16) {
        let fd = try stream()
        // A listener waits as long as its test runs: no receive timeout on accept.
        var forever = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &forever, socklen_t(MemoryLayout<timeval>.size))
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw Failure(description: "cannot listen: \(String(cString: strerror(errno)))")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Accepts connections on `listener` from a thread of its own and hands each to `serve` on another, until
    /// `stopAccepting` shuts the listener down; `accepted` is called on the accepting thread first.
    ///
    /// The accepting thread closes the listener itself, once `accept` fails. Were the owner to close it, a thread
    /// the machine had not yet run could call `accept` on the number after the kernel gave it to the next test's
    /// listener, and serve that test's connections with the old server's counters (a loaded CI run once did).
    public static func acceptConnections(
        on listener: Int32, accepted: @escaping @Sendable () -> Void = {}, serve: @escaping @Sendable (Int32) -> Void
    ) {
        Thread.detachNewThread {
            defer { close(listener) }
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else {
                    if errno == EINTR { continue }
                    return
                }
                accepted()
                Thread.detachNewThread { serve(client) }
            }
        }
    }

    /// Ends `acceptConnections` on `listener`: the waiting `accept` fails, and the accepting thread closes it.
    public static func stopAccepting(_ listener: Int32) {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// A connected socket to 127.0.0.1:`port`.
    public static func connect(port: UInt16) throws -> Int32 {
        let fd = try stream()
        var target = address(port: port)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// Writes `text`; false once the peer has closed the connection.
    @discardableResult
    public static func write(_ fd: Int32, _ text: String) -> Bool {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) } == bytes.count
    }

    /// Everything the peer sends until it closes (or the receive timeout passes).
    public static func readToEnd(_ fd: Int32) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Sends `GET target` to 127.0.0.1:`port` and returns the status code and the whole response. The
    /// blocking reads run on a thread of their own: parallel tests blocking the few threads of Swift's
    /// cooperative pool would keep the code under test from running at all.
    public static func get(port: UInt16, _ target: String) async throws -> (status: Int, response: String) {
        try await onThread { try blockingGet(port: port, target) }
    }

    /// `get`, blocking the calling thread: for a client that already runs on a thread of its own (`onThread`).
    public static func blockingGet(port: UInt16, _ target: String) throws -> (status: Int, response: String) {
        let fd = try connect(port: port)
        defer { close(fd) }
        write(fd, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let response = readToEnd(fd)
        let status = response.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, response)
    }

    /// Runs `body` on a thread of its own and returns what it returns. A client whose timing a test measures
    /// runs its steps there: between two steps an async client waits for a thread of the cooperative pool,
    /// which a CI run of the whole suite on 2 cores has kept busy for minutes.
    public static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await DedicatedThread.run(body)
    }
}
