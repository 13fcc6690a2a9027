import Foundation
import IdFlowCore
import IdFlowFoundation

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

    private let route: @Sendable (HTTPRequest) -> Reply?
    private let recorded = Locked<[HTTPRequest]>([])

    /// `route` returns nil for a request it does not expect; that request then fails as unscripted.
    public init(_ route: @escaping @Sendable (HTTPRequest) -> Reply?) {
        self.route = route
    }

    public var requests: [HTTPRequest] { recorded.current }

    /// What this transport would answer, without recording: lets one transport build on another's routes.
    public func answer(_ request: HTTPRequest) -> Reply? { route(request) }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        guard let reply = route(request) else { throw UnexpectedRequest(method: request.method, url: request.url.absoluteString) }
        return HTTPResponse(status: reply.status, headers: reply.headers, body: reply.body, url: request.url)
    }
}
