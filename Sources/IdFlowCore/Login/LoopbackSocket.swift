import Foundation
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few socket calls the loopback listener needs, spelled once for Glibc and once for Darwin.
///
/// CI builds and tests on Linux only; `Package.swift` still declares macOS, so every Glibc-only spelling
/// (`SOCK_STREAM` as an enum with a `rawValue`, `MSG_NOSIGNAL`) stays behind a guard here rather than in
/// the listener's logic, and Darwin gets its own equivalent (`SO_NOSIGPIPE`).
enum LoopbackSocket {
    /// A TCP socket, or -1 with `errno` set.
    static func openStream() -> Int32 {
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let fd = socket(AF_INET, type, 0)
        if fd >= 0 { prepare(fd) }
        return fd
    }

    /// 127.0.0.1:`port` as a `sockaddr_in`.
    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Non-blocking (a descriptor `poll` called ready may still have nothing by the time it is read, and a
    /// stalled peer must never block the listener), closed on exec (the `$BROWSER` child must not inherit
    /// the listener), and, on Darwin, without SIGPIPE when the peer has gone (Linux passes `MSG_NOSIGNAL` to
    /// each `send` instead).
    static func prepare(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Sends as much of `bytes` as the socket takes without blocking; a peer that stopped reading just
    /// gets a cut-off page, and a closed one never raises SIGPIPE.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// What `recv` gave on a non-blocking socket.
    enum Received {
        case bytes(Int)
        case wouldBlock
        case closed
    }

    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Received {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    static func errorDescription() -> String {
        String(cString: strerror(errno))
    }
}
