/// The error body every Okta management and Authn endpoint sends (`errorCode`, `errorSummary`, `errorCauses`, …).
public struct OktaErrorBody: Decodable, Sendable, Equatable {
    public struct Cause: Decodable, Sendable, Equatable {
        public var errorSummary: String
    }

    public var errorCode: String
    public var errorSummary: String
    public var errorLink: String?
    public var errorId: String?
    public var errorCauses: [Cause]

    public init(errorCode: String, errorSummary: String, errorLink: String? = nil, errorId: String? = nil, errorCauses: [Cause] = []) {
        self.errorCode = errorCode
        self.errorSummary = errorSummary
        self.errorLink = errorLink
        self.errorId = errorId
        self.errorCauses = errorCauses
    }

    private enum CodingKeys: String, CodingKey {
        case errorCode, errorSummary, errorLink, errorId, errorCauses
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        errorCode = try container.decode(String.self, forKey: .errorCode)
        errorSummary = try container.decode(String.self, forKey: .errorSummary)
        errorLink = try container.decodeIfPresent(String.self, forKey: .errorLink)
        errorId = try container.decodeIfPresent(String.self, forKey: .errorId)
        // Real causes sometimes carry extra fields, and a malformed cause must not hide the error itself.
        errorCauses = (try? container.decodeIfPresent([Cause].self, forKey: .errorCauses)) ?? []
    }

    /// The summaries of the causes, in the order the server gave them.
    public var causeSummaries: [String] { errorCauses.map(\.errorSummary) }
}

/// The OAuth 2.0 error body (`error`, `error_description`) of the token, introspect and revoke endpoints.
public struct OAuthErrorBody: Decodable, Sendable, Equatable {
    public var error: String
    public var errorDescription: String?

    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        /// The camelCase spelling an SDK's recording of the Identity Engine's `/interact` error has
        /// (docs/protocols/idx.md §2); read when the standard key is absent, so the description is not lost.
        case camelCaseDescription = "errorDescription"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try container.decode(String.self, forKey: .error)
        errorDescription =
            try container.decodeIfPresent(String.self, forKey: .errorDescription)
            ?? container.decodeIfPresent(String.self, forKey: .camelCaseDescription)
    }
}
