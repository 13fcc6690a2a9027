import Foundation
import IdFlowCore
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTPS proxy as companies run them, on 127.0.0.1 for tests: it answers `CONNECT host:port` by opening a
/// tunnel to 127.0.0.1:port whatever the host name, so an org whose name no DNS resolves is reachable through
/// the proxy and only through it. With `credentials` set it wants `Proxy-Authorization: Basic …` and answers
/// 407 without it, as a proxy that authenticates its users does.
public final class ConnectProxy: @unchecked Sendable {
    public let port: UInt16
    /// Every CONNECT target it was asked for (`host:port`), in order, refused ones included.
    public let targets = Locked<[String]>([])
    /// How many CONNECTs it refused with 407.
    public let refusals = Locked(0)
    private let listener: Int32

    public var url: String { "http://127.0.0.1:\(port)" }

    public init(credentials: (username: String, password: String)? = nil) throws {
        (listener, port) = try RawSocket.listener()
        let fd = listener
        let expected = credentials.map { "Basic " + Data("\($0.username):\($0.password)".utf8).base64EncodedString() }
        let targets = targets
        let refusals = refusals
        RawSocket.acceptConnections(on: fd) { client in
            Self.serve(client, expected: expected, targets: targets, refusals: refusals)
        }
    }

    deinit {
        RawSocket.stopAccepting(listener)
    }

    private static func serve(_ client: Int32, expected: String?, targets: Locked<[String]>, refusals: Locked<Int>) {
        defer { close(client) }
        guard let head = readHead(client) else { return }
        let lines = head.components(separatedBy: "\r\n")
        let request = lines.first?.split(separator: " ") ?? []
        guard request.count >= 2, request[0] == "CONNECT" else {
            RawSocket.write(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let target = String(request[1])
        targets.withLock { $0.append(target) }
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        if let expected, authorization != expected {
            refusals.withLock { $0 += 1 }
            RawSocket.write(
                client,
                "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"idflow-test\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
            return
        }
        guard let port = target.split(separator: ":").last.flatMap({ UInt16($0) }), let upstream = try? RawSocket.connect(port: port)
        else {
            RawSocket.write(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        defer { close(upstream) }
        RawSocket.write(client, "HTTP/1.1 200 Connection established\r\n\r\n")
        relay(client, upstream)
    }

    /// The request head, byte by byte so nothing of the tunnel that follows is consumed.
    private static func readHead(_ fd: Int32) -> String? {
        var bytes = [UInt8]()
        var byte: UInt8 = 0
        while bytes.count < 16 * 1024 {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte)
            if bytes.count >= 4, bytes.suffix(4) == [0x0D, 0x0A, 0x0D, 0x0A] { return String(decoding: bytes, as: UTF8.self) }
        }
        return nil
    }

    /// Copies bytes both ways until either side closes.
    private static func relay(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            guard poll(&fds, 2, 120_000) > 0 else { return }
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let count = recv(entry.fd, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                let other = index == 0 ? b : a
                #if canImport(Glibc)
                    let flags = Int32(MSG_NOSIGNAL)
                #else
                    let flags: Int32 = 0
                #endif
                guard send(other, buffer, count, flags) == count else { return }
            }
        }
    }
}
