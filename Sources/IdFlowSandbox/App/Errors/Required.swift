/// A value a route cannot answer without: the value, or the error Okta answers when the request leaves it out.
/// One place for the check every controller makes of its body, query and form fields.
enum Required {
    static func value<Value>(_ value: Value?, else error: @autoclosure () -> any Error) throws -> Value {
        guard let value else { throw error() }
        return value
    }

    /// A string that is present and not empty.
    static func text(_ value: String?, else error: @autoclosure () -> any Error) throws -> String {
        guard let value, !value.isEmpty else { throw error() }
        return value
    }
}

extension OktaErrorResponse {
    /// E0000001 for a required field left out, in Okta's words; the summary names `field` (default: the path).
    static func blank(_ path: String, field: String? = nil) -> Self {
        validation(field ?? path, causes: ["\(path): The field cannot be left blank"])
    }
}

extension OAuthErrorResponse {
    /// `invalid_request` for a required parameter left out, in Okta's words.
    static func missingParameter(_ name: String) -> Self {
        Self(.badRequest, "invalid_request", "The '\(name)' parameter is required.")
    }
}
