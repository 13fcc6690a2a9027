import Foundation
import IdFlowCore
import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers each request with a function of it, for flows whose requests carry values made
/// at run time (a PKCE state, a fresh token) that a fixed script cannot know. Records every request.
public final class RoutedTransport: HTTPTransport, @unchecked Sendable {
    /// One answer: status, headers and body.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        public static func json(_ status: Int, _ body: String) -> Reply {
            Reply(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
    }

    private let route: @Sendable (URLRequest) -> Reply?
    private let recorded = Locked<[URLRequest]>([])

    /// `route` returns nil for a request it does not expect; that request then fails as unscripted.
    public init(_ route: @escaping @Sendable (URLRequest) -> Reply?) {
        self.route = route
    }

    public var requests: [URLRequest] { recorded.current }

    /// What this transport would answer, without recording: lets one transport build on another's routes.
    public func answer(_ request: URLRequest) -> Reply? { route(request) }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        guard let reply = route(request), let url = request.url else {
            throw UnexpectedRequest(method: request.httpMethod ?? "GET", url: request.url?.absoluteString ?? "")
        }
        return (reply.body, HTTPURLResponse(url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)!)
    }
}
