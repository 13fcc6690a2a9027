import Foundation

/// The production transport: libcurl driven directly, one thread running a multi handle for every request.
///
/// URLSession on Linux is libcurl too, but moves each request across several dispatch queues and threads
/// (about 0.8 ms of CPU a request in `register --batch`, against 0.1 ms for libcurl alone), and offers no way
/// to set a CA file, a client certificate or a proxy. Here a request is configured on the caller's thread,
/// handed to the loop thread through a locked queue (`CurlMultiLoop`), and its caller resumed once when the
/// transfer ends; connections stay in the multi handle's cache between requests.
///
/// The transport: redirects are never followed, no cookies, TLS always verified (there is no switch to turn it
/// off), a body over `maximumResponseBytes` is cut off as it streams in and fails with `.protocolViolation`
/// (exit 7), and transport failures are `TransportFailure`s of the kinds `HTTPClient` and `RetryPolicy`
/// classify, their reason libcurl's own error text.
public final class CurlTransport: HTTPTransport {
    public let options: Options
    public let maximumResponseBytes: Int
    /// `--verbose` lines about the connection itself: the proxy a request goes through, and once per new
    /// connection the server certificate that was verified.
    public let notes: (@Sendable (String) -> Void)?
    /// Started on the first request, so a command that sends none pays nothing for libcurl's set-up.
    private let loop = Locked<CurlMultiLoop?>(nil)
    /// `options.trustBundle`, read once on the first request that needs it.
    private let trust = Locked<Result<Data?, TransportFailure>?>(nil)

    public init(options: Options = Options(), maximumResponseBytes: Int = 10 * 1024 * 1024, notes: (@Sendable (String) -> Void)? = nil) {
        self.options = options
        self.maximumResponseBytes = maximumResponseBytes
        self.notes = notes
    }

    deinit {
        loop.current?.shutdown()
    }

    /// What the exit handler does for every transport (`CurlMultiLoop.endAllBeforeExit`): fails a request
    /// under way as cancelled, closes the cached connections and waits until `deadline` for the loop's
    /// thread to end. True once it has; later requests fail as cancelled.
    func endBeforeExit(waitingUntil deadline: DispatchTime) -> Bool {
        loop.current?.end(waitingUntil: deadline) ?? true
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let loop = try runningLoop()
        let bundle = try trustBundle()
        let transfer = CurlTransfer(url: request.url, maximumBytes: maximumResponseBytes, handle: try loop.takeHandle())
        defer { loop.returnHandle(transfer.releaseHandle()) }
        try transfer.configure(for: request, options: options, trustBundle: bundle)
        if let notes, let proxy = transfer.proxy {
            notes("through proxy \(proxy)\(options.proxyCredentials != nil ? " (with credentials)" : "")")
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            transfer.continuation = continuation
            loop.start(transfer)
        }
        if let notes, let peer = transfer.verifiedPeer, let host = request.url.host {
            notes("TLS certificate of \(host): \(peer.summary)")
        }
        return try transfer.response()
    }

    private func trustBundle() throws -> Data? {
        // Without --ca-file there is nothing to read: no lock taken on every request of a batch.
        guard options.caFile != nil else { return nil }
        let result = trust.withLock { cached in
            if let cached { return cached }
            let read = Result { () throws(TransportFailure) -> Data? in try options.trustBundle(systemDefault: CurlMultiLoop.defaultCAFile)
            }
            cached = read
            return read
        }
        return try result.get()
    }

    private func runningLoop() throws -> CurlMultiLoop {
        try loop.withLock { loop in
            if let running = loop { return running }
            let started = try CurlMultiLoop()
            loop = started
            return started
        }
    }
}
