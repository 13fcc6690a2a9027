import Foundation
import IdFlowCore
import IdFlowFoundation

/// A transport that answers from a script and records every request, so tests can assert on what was sent.
/// A request the script does not expect fails the test loudly instead of reaching the network.
public final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    /// One scripted answer: a response, or a transport error such as `TransportFailure(.cannotConnectToHost)`.
    public enum Answer: Sendable {
        case response(status: Int, headers: [String: String], body: Data)
        case failure(TransportFailure)

        public static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Answer {
            .response(
                status: status, headers: ["Content-Type": "application/json;charset=UTF-8"].merging(headers) { $1 }, body: Data(body.utf8))
        }

        public static func json(_ status: Int, data: Data, headers: [String: String] = [:]) -> Answer {
            .response(status: status, headers: ["Content-Type": "application/json;charset=UTF-8"].merging(headers) { $1 }, body: data)
        }
    }

    private let answers: Locked<[Answer]>
    private let recorded = Locked<[HTTPRequest]>([])

    public init(_ answers: [Answer]) {
        self.answers = Locked(answers)
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequest] { recorded.current }

    /// Answers not yet used; a test that expects every answer to be consumed checks this is zero.
    public var remaining: Int { answers.current.count }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        guard let answer = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            throw UnexpectedRequest(method: request.method, url: request.url.absoluteString)
        }
        switch answer {
        case .failure(let error):
            throw error
        case .response(let status, let headers, let body):
            return HTTPResponse(status: status, headers: headers, body: body, url: request.url)
        }
    }
}

/// Thrown when code under test sends a request no script prepared.
public struct UnexpectedRequest: Error, CustomStringConvertible {
    public var method: String
    public var url: String
    public var description: String { "unscripted request: \(method) \(url)" }
}

extension HTTPRequest {
    /// The body decoded as JSON, for assertions.
    public var jsonBody: JSONValue? { body.flatMap { try? JSONValue(data: $0) } }

    /// The body decoded as a form, for assertions.
    public var formBody: [String: String] {
        guard let body, let text = String(data: body, encoding: .utf8) else { return [:] }
        return Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
    }
}
