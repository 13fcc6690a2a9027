import Foundation

/// A request described as data, built and checked without a network.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// Whether sending it twice has the same effect as once; only such requests are retried after the
    /// server may have seen them (a 429 or a refused connection are retried for every request).
    public var isIdempotent: Bool
    /// A DPoP proof or client assertion to sign anew for each attempt (`RequestSigning`); nil for most requests.
    public var signing: (any RequestSigner)?
    /// How long the transfer may take; `HTTPClient` sets it from `--timeout` on every attempt.
    public var timeout: Duration?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, isIdempotent: Bool? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method)
    }

    /// The value of header `name`, whatever the case it was set in.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        return headers.first { HeaderName.same($0.key, name) }?.value
    }

    /// Sets header `name`, replacing one of the same name in any case (header names are case-insensitive).
    public mutating func setHeader(_ name: String, _ value: String) {
        for key in headers.keys where key != name && HeaderName.same(key, name) { headers[key] = nil }
        headers[name] = value
    }

    /// A GET that expects JSON.
    public static func get(_ url: URL, headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"].merging(headers) { $1 })
    }

    /// A request whose body is the JSON encoding of `body`.
    public static func json(_ method: String, _ url: URL, body: some Encodable, headers: [String: String] = [:], isIdempotent: Bool? = nil)
        throws -> HTTPRequest
    {
        let data: Data
        // A document (a batch's user profiles) writes the bytes the encoder would, without an encoder per request.
        if let document = body as? JSONValue, let bytes = document.compactJSON() {
            data = Data(bytes)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(body)
        }
        return HTTPRequest(
            method: method, url: url,
            headers: ["Accept": "application/json", "Content-Type": "application/json"].merging(headers) { $1 },
            body: data, isIdempotent: isIdempotent)
    }

    /// A POST with an `application/x-www-form-urlencoded` body, as the OAuth endpoints take.
    public static func form(_ url: URL, fields: [(String, String)], headers: [String: String] = [:], isIdempotent: Bool = false)
        -> HTTPRequest
    {
        HTTPRequest(
            method: "POST", url: url,
            headers: ["Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 },
            body: Data(FormEncoding.encode(fields).utf8), isIdempotent: isIdempotent)
    }
}

extension HTTPRequest: Equatable {
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        guard lhs.method == rhs.method, lhs.url == rhs.url, lhs.headers == rhs.headers, lhs.body == rhs.body,
            lhs.isIdempotent == rhs.isIdempotent, lhs.timeout == rhs.timeout
        else { return false }
        switch (lhs.signing, rhs.signing) {
        case (nil, nil): return true
        case (let left?, let right?): return left.signsLike(right)
        default: return false
        }
    }
}

/// The answer to one request, with header names matched case-insensitively (HTTP/2 sends them lower-case).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var url: URL

    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.url = url
    }

    /// Headers already keyed by lower-case name (the transport lowers them as it reads the head).
    package init(status: Int, lowercasedHeaders headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var isSuccess: Bool { (200..<300).contains(status) }
    public var isRedirect: Bool { (300..<400).contains(status) }

    public var contentType: String? { header("Content-Type") }

    /// Whether the body claims or looks like JSON.
    package var looksLikeJSON: Bool {
        if let type = contentType?.lowercased(), type.contains("json") { return true }
        let first = body.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}

/// `application/x-www-form-urlencoded` as the HTML and OAuth specifications define it.
public enum FormEncoding {
    /// Characters left as they are; everything else is percent-encoded (space as `%20`, which every server accepts).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    public static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// Decodes a form or query string into ordered pairs (`+` is a space, as in forms).
    public static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}
