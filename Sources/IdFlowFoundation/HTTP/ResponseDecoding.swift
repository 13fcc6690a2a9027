import Foundation

extension HTTPResponse {
    /// Decodes a 2xx body as `T`; any other status becomes the matching `IdFlowError`.
    public func decode<T: Decodable>(_ type: T.Type) throws(IdFlowError) -> T {
        guard isSuccess else { throw failure() }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw .protocolViolation(
                "the server's answer from \(Redactor.url(url.absoluteString)) is not the expected \(T.self): \(Self.describe(decodingError: error))"
            )
        }
    }

    /// The 2xx body as a JSON document, for payloads idflow passes through (parsed by `JSONValue(parsing:)`,
    /// not `JSONDecoder`: a batch reads every user it creates this way).
    public func json() throws(IdFlowError) -> JSONValue {
        guard isSuccess else { throw failure() }
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw .protocolViolation(
                "the server's answer from \(Redactor.url(url.absoluteString)) is not the expected JSONValue: \(Self.describe(decodingError: error))"
            )
        }
    }

    /// The error a non-2xx response stands for: Okta's error body, an OAuth error body, or a readable
    /// description of whatever else came back (an HTML page from a proxy, a truncated body).
    public func failure(hint: String? = nil) -> IdFlowError {
        if looksLikeJSON {
            if let okta = try? JSONDecoder().decode(OktaErrorBody.self, from: body) {
                return .okta(status: status, body: okta, hint: hint)
            }
            if let oauth = try? JSONDecoder().decode(OAuthErrorBody.self, from: body) {
                return .oauth(status: status, body: oauth, hint: hint)
            }
        }
        return .unexpectedResponse(status: status, contentType: contentType, snippet: snippet, url: Redactor.url(url.absoluteString))
    }

    /// The first 200 characters of the body on one line, for error messages.
    package var snippet: String {
        guard let text = String(data: body.prefix(600), encoding: .utf8) ?? String(data: body.prefix(599), encoding: .utf8) else {
            return "<\(body.count) bytes of binary data>"
        }
        let oneLine = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
    }

    package static func describe(decodingError error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): return "missing key \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted: return "not valid JSON (truncated or not JSON at all)"
        default: return String(describing: error)
        }
    }
}
