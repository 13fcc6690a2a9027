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

/// The production transport: Foundation's URLSession (libcurl underneath on Linux), TLS always verified.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate = RedirectRefusingDelegate()

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), http))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            task.resume()
        }
    }
}

/// Declines every redirect so the caller sees the 3xx and its `Location`.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
