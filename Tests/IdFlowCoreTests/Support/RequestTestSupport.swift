import Foundation
import IdFlowCore
import IdFlowFoundation

/// Helpers to look at a built request the way a server would.
enum Built {
    static let org = URL(string: "https://example.okta.com")!

    /// The query of `request` as ordered pairs, decoded.
    static func query(_ request: HTTPRequest) -> [(String, String)] {
        FormEncoding.decode(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
    }

    static func queryItems(_ request: HTTPRequest) -> [String: String] {
        Dictionary(query(request), uniquingKeysWith: { first, _ in first })
    }

    /// The form body as a dictionary.
    static func form(_ request: HTTPRequest) -> [String: String] {
        Dictionary(FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)), uniquingKeysWith: { first, _ in first })
    }

    static func json(_ request: HTTPRequest) throws -> JSONValue {
        try JSONValue(data: request.body ?? Data())
    }

    /// A response to `url` as the client would hand it to `decode`.
    static func response(
        _ status: Int, _ body: String = "", headers: [String: String] = ["Content-Type": "application/json"], url: URL = org
    ) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(body.utf8), url: url)
    }

    /// The error `body` throws, nil when it does not throw.
    static func error<T>(_ body: () throws(IdFlowError) -> T) -> IdFlowError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}
