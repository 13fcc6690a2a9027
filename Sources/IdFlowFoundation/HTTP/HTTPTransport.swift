import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one seam between idflow and the network, so tests can script answers without a socket.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the response as received: redirects are never followed, because
    /// the authorize step reads the `Location` of a 302 (which may name a custom scheme).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// Foundation's URLSession (libcurl underneath on Linux), TLS always verified: the transport before
/// `CurlTransport`, kept for comparison (`IDFLOW_HTTP_TRANSPORT=urlsession`) until the HTTP stack is settled.
///
/// Bodies arrive through a data delegate rather than a completion handler so that an answer larger than
/// `maximumResponseBytes` is cut off as it streams in: every answer idflow reads is a small JSON or HTML
/// document, and a server (or a proxy in front of it) that sends more must not make the CLI hold it all in
/// memory first.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: ResponseCollectingDelegate

    /// `maximumResponseBytes`: the largest body accepted; a larger one fails with exit 7 (`.protocolViolation`).
    public init(maximumResponseBytes: Int = 10 * 1024 * 1024) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The default (6) would hold `register --batch --concurrency 8` to six requests in flight.
        configuration.httpMaximumConnectionsPerHost = 64
        delegate = ResponseCollectingDelegate(maximumBytes: maximumResponseBytes)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request)
            delegate.register(task, url: request.url, continuation: continuation)
            task.resume()
        }
    }
}

/// Collects each task's body (keyed by task identifier, since one session runs every request), cancels a
/// task whose body outgrows the cap, resumes each caller exactly once when its task completes, and declines
/// every redirect so the caller sees the 3xx and its `Location`.
private final class ResponseCollectingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Continuation = CheckedContinuation<(Data, HTTPURLResponse), any Error>

    private struct Pending {
        var continuation: Continuation
        package var url: URL?
        var body = Data()
        /// Set when idflow cancelled the task itself; reported instead of the cancellation.
        var failure: IdFlowError?
    }

    private let maximumBytes: Int
    private let pending = Locked<[Int: Pending]>([:])

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    func register(_ task: URLSessionTask, url: URL?, continuation: Continuation) {
        pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation, url: url) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A declared length over the cap is refused before a byte of the body is read.
        let declared = response.expectedContentLength
        if declared > maximumBytes {
            refuse(dataTask, received: Int(declared))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let received: Int? = pending.withLock { all in
            guard var entry = all[dataTask.taskIdentifier], entry.failure == nil else { return nil }
            entry.body.append(data)
            let count = entry.body.count
            if count > maximumBytes { entry.body = Data() }
            all[dataTask.taskIdentifier] = entry
            return count
        }
        if let received, received > maximumBytes {
            refuse(dataTask, received: received)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = entry.failure {
            entry.continuation.resume(throwing: failure)
        } else if let error {
            entry.continuation.resume(throwing: error)
        } else if let http = task.response as? HTTPURLResponse {
            entry.continuation.resume(returning: (entry.body, http))
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }

    /// Records why the task is being cancelled, so its completion reports the size, not "cancelled".
    private func refuse(_ task: URLSessionTask, received: Int) {
        pending.withLock { all in
            guard var entry = all[task.taskIdentifier] else { return }
            entry.failure = ResponseSizeCap.refusal(url: entry.url, received: received, maximum: maximumBytes)
            entry.body = Data()
            all[task.taskIdentifier] = entry
        }
    }
}
